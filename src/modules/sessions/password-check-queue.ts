import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** What a full queue tells the client to wait, in seconds (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The queue was full: the sign-in is answered at once instead of waiting (docs/security.md). */
export class PasswordQueueFull extends Error {
  constructor() {
    super('Password check queue full');
    this.name = 'PasswordQueueFull';
  }
}

type Waiter = () => void;

/**
 * A bounded, per-address fair queue in front of password hashing (scrypt runs on libuv's
 * 4-thread pool, 32 MiB and tens to hundreds of milliseconds each). At most
 * PASSWORD_HASH_CONCURRENCY checks run at once in this instance and at most PASSWORD_HASH_QUEUE
 * wait; past that, run() rejects at once with PasswordQueueFull. Waiters are served round-robin
 * over their addresses, so a sign-in from a quiet address waits behind at most one check per
 * other waiting address, never behind a whole burst from one address.
 */
@Injectable()
export class PasswordCheckQueue {
  private readonly concurrency: number;
  private readonly maxWaiting: number;
  private running = 0;
  private waiting = 0;
  /** Waiters per address; a Map iterates in insertion order, which makes the round-robin. */
  private readonly byAddress = new Map<string, Waiter[]>();

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.concurrency = config.passwordHashConcurrency;
    this.maxWaiting = config.passwordHashQueue;
  }

  /** Runs `task` when its turn comes; rejects with PasswordQueueFull when none is left. */
  async run<T>(address: string, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting >= this.maxWaiting) throw new PasswordQueueFull();
      await new Promise<void>((resolve) => this.enqueue(address, resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      this.next();
    }
  }

  private enqueue(address: string, waiter: Waiter): void {
    this.waiting += 1;
    const queue = this.byAddress.get(address);
    if (queue) queue.push(waiter);
    else this.byAddress.set(address, [waiter]);
  }

  /** Hands the finished task's place to the first waiting address, which then goes last. */
  private next(): void {
    const first = this.byAddress.entries().next();
    if (first.done) {
      this.running -= 1;
      return;
    }
    const [address, queue] = first.value;
    const waiter = queue.shift()!;
    this.byAddress.delete(address);
    if (queue.length > 0) this.byAddress.set(address, queue);
    this.waiting -= 1;
    waiter(); // takes over the running place
  }
}
