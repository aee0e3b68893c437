import type { AppConfig } from '../../config/app-config';
import { PasswordCheckQueue, PasswordQueueFull } from './password-check-queue';

/** A task that finishes when the test says so, and records when it started. */
function held(
  started: string[],
  name: string,
): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const queueOf = (concurrency: number, waiting: number): PasswordCheckQueue =>
  new PasswordCheckQueue({
    passwordHashConcurrency: concurrency,
    passwordHashQueue: waiting,
  } as AppConfig);

/** Lets every settled promise's continuation run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe(PasswordCheckQueue.name, () => {
  describe('run', () => {
    it('runs at most `concurrency` tasks and refuses at once past the waiting bound', async () => {
      const queue = queueOf(2, 1);
      const started: string[] = [];
      const [a, b, c] = ['a', 'b', 'c'].map((name) => held(started, name));
      const running = [queue.run('x', a.task), queue.run('y', b.task), queue.run('z', c.task)];
      await expect(queue.run('w', () => Promise.resolve('never'))).rejects.toBeInstanceOf(
        PasswordQueueFull,
      );
      await settle();
      expect(started).toEqual(['a', 'b']);
      a.finish();
      await settle();
      expect(started).toEqual(['a', 'b', 'c']);
      b.finish();
      c.finish();
      await expect(Promise.all(running)).resolves.toEqual(['a', 'b', 'c']);
      // Everything finished: the places are free again.
      await expect(queue.run('w', () => Promise.resolve('now'))).resolves.toBe('now');
    });

    it('refuses a task at once when nothing may wait and every place is taken', async () => {
      const queue = queueOf(1, 0);
      const hold = held([], 'hold');
      const holding = queue.run('x', hold.task);
      await expect(queue.run('y', () => Promise.resolve('y'))).rejects.toBeInstanceOf(
        PasswordQueueFull,
      );
      hold.finish();
      await holding;
      await expect(queue.run('y', () => Promise.resolve('y'))).resolves.toBe('y');
    });

    it('serves waiting addresses in turn, so one burst does not delay another address', async () => {
      const queue = queueOf(1, 10);
      const started: string[] = [];
      const first = held(started, 'burst-0');
      const tasks = [queue.run('burst', first.task)];
      const burst = [1, 2, 3, 4].map((i) => held(started, `burst-${i}`));
      for (const task of burst) tasks.push(queue.run('burst', task.task));
      const quiet = held(started, 'quiet');
      tasks.push(queue.run('quiet', quiet.task));
      for (const task of [first, ...burst, quiet]) {
        await settle();
        task.finish();
      }
      await Promise.all(tasks);
      expect(started).toEqual(['burst-0', 'burst-1', 'quiet', 'burst-2', 'burst-3', 'burst-4']);
    });

    it('frees the place of a task that fails', async () => {
      const queue = queueOf(1, 0);
      await expect(queue.run('x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      await expect(queue.run('x', () => Promise.resolve('ok'))).resolves.toBe('ok');
    });
  });
});
