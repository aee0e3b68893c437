import { spawn } from 'node:child_process';
import { cpSync, existsSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * The run's compiled sources (test/support/global-setup.ts) for the service and CLI processes the
 * tests start: `npm run build` into a directory of the run's own, without the type-check (that
 * is `npm run check`). Starting through ts-node compiles every source file again in each
 * process, ≈ 2.3 s of CPU of the ≈ 2.9 s a CLI process takes to start; ten processes per run.
 */
export const CHILD_BUILD_ENV = 'IDSVC_TEST_BUILD';

/** Builds into `dir`; resolves with the output directory, undefined when tsc failed. */
export async function buildForChildren(dir: string): Promise<string | undefined> {
  const outDir = join(dir, 'dist');
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const args = ['-p', 'tsconfig.build.json', '--noCheck', '--outDir', outDir];
  const flags = ['--incremental', 'false', '--tsBuildInfoFile', 'null', '--sourceMap', 'false'];
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [tsc, ...args, ...flags], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', () => done(null));
    child.once('exit', done);
  });
  if (code !== 0) return undefined;
  // What `npm run build` copies beside the code; packages and package.json are the repository's.
  for (const assets of [
    join('modules', 'console', 'web', 'assets'),
    join('modules', 'passkeys', 'sign-in', 'assets'),
    join('modules', 'interaction', 'account-page', 'assets'),
    join('common', 'i18n', 'locales'),
  ]) {
    cpSync(join(ROOT, 'src', assets), join(outDir, assets), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  symlinkSync(join(ROOT, 'package.json'), join(dir, 'package.json'), 'file');
  return outDir;
}

/** The compiled file of a TypeScript entry under src/, when the run has a build. */
export function builtEntry(entry: string): string | undefined {
  const outDir = process.env[CHILD_BUILD_ENV];
  if (!outDir) return undefined;
  const file = join(outDir, relative('src', entry)).replace(/\.ts$/, '.js');
  return existsSync(file) ? file : undefined;
}
