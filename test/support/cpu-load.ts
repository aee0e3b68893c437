import { ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Busy-loop child processes, one per core by default, so a test runs on a machine as loaded as
 * CI's. Each spinner also exits by itself once its parent is gone (its ppid changes), so a
 * crashed test run never leaves them behind.
 */
const SPIN =
  'const p=process.ppid;for(let i=0;;i++)if((i&0xffffff)===0&&process.ppid!==p)process.exit()';

export interface CpuLoad {
  /** SIGKILLs every spinner and waits for it to exit. */
  stop: () => Promise<void>;
}

export function loadCpus(count = availableParallelism()): CpuLoad {
  const spinners: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }),
  );
  return {
    stop: async () => {
      await Promise.all(
        spinners.map((child) => {
          if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          return exited;
        }),
      );
    },
  };
}
