import type { ChildProcess } from 'node:child_process';
import { spawnTs } from './cli';

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** Everything the service wrote to stderr so far. */
  stderr: () => string;
  /** Everything the service wrote to stdout (the JSON log lines) so far. */
  stdout: () => string;
  /** Resolves once stderr contains `text`. */
  waitForStderr: (text: string) => Promise<void>;
  exitCode: Promise<number | null>;
}

/** Starts src/main.ts as a real process on a free port (PORT=0) and waits until it listens. */
export async function startService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const child = spawnTs('src/main.ts', [], { ...env, PORT: '0' });
  let log = '';
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const waiters: { text: string; done: () => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const waiter of waiters.filter((w) => log.includes(w.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.done();
    }
  });
  const exitCode = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const waitForStderr = (text: string): Promise<void> =>
    log.includes(text)
      ? Promise.resolve()
      : new Promise((done, fail) => {
          waiters.push({ text, done });
          void exitCode.then(() => fail(new Error(`service exited before "${text}":\n${log}`)));
        });
  await waitForStderr('listening on');
  const port = Number(/\(port (\d+)\)/.exec(log)?.[1]);
  return { child, port, stderr: () => log, stdout: () => out, waitForStderr, exitCode };
}
