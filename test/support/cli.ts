import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { builtEntry } from './child-build';

const ROOT = join(__dirname, '..', '..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child process: the parent's, minus the database/redis unless given. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Runs a TypeScript entry point of this repo (src/cli/main.ts, src/main.ts) as a real process:
 * its file in the run's build (test/support/child-build.ts), else the source through ts-node.
 */
export function spawnTs(entry: string, args: string[], env: NodeJS.ProcessEnv) {
  const built = builtEntry(entry);
  const start = built ? [built] : ['-r', 'ts-node/register/transpile-only', join(ROOT, entry)];
  return spawn(process.execPath, [...start, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the admin CLI to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  const child = spawnTs('src/cli/main.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}
