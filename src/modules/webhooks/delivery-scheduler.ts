import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { ShutdownState } from '../../common/http/shutdown-state';

/** Deliveries started by one claim. */
export interface Started {
  /** One per row claimed; each settles true when more work may wait behind it. */
  deliveries: Promise<boolean>[];
  /** The claim took all the room there was: more rows may be due. */
  full: boolean;
}

/** What a scheduler drives: the webhook engine, the back-channel logout engine. */
export interface DeliveryEngine {
  /** Claims due rows into the room left and starts their deliveries (not awaited). */
  startDue(): Promise<Started>;
  /** No more claims or POSTs from now on. */
  stop(): void;
  /** Resolves once no delivery of this instance runs. */
  drain(): Promise<void>;
}

/**
 * The bookkeeping both delivery engines keep for one instance: the deliveries running now, by
 * their row's key (the room left of `max`, and what a claim must not take again), claims made
 * one after another, and the stop after which no claim or POST starts (the engine's own, or the
 * service shutting down).
 */
export class InFlight<K> {
  private stopping = false;
  private readonly running = new Map<K, Promise<boolean>>();
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly max: number,
    private readonly shutdown: ShutdownState,
  ) {}

  get stopped(): boolean {
    return this.stopping || this.shutdown.shuttingDown;
  }

  stop(): void {
    this.stopping = true;
  }

  /** Resolves once no delivery runs (each has given its lease back). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Deliveries that may start now. */
  get room(): number {
    return this.max - this.running.size;
  }

  /** The keys of the deliveries running now. */
  get busy(): K[] {
    return [...this.running.keys()];
  }

  /** Runs `claim` once the claims before it have ended (the room is this instance's). */
  claim(claim: () => Promise<Started>): Promise<Started> {
    const started = this.claiming.then(claim);
    this.claiming = started.catch(() => undefined);
    return started;
  }

  /** Counts `delivery` as running under `key` until it settles. */
  track(key: K, delivery: Promise<boolean>): Promise<boolean> {
    const tracked = delivery.finally(() => this.running.delete(key));
    this.running.set(key, tracked);
    return tracked;
  }
}

/**
 * Keeps an instance's deliveries going (docs/webhooks.md, "Several instances"): every `pollMs`
 * (0 = never) it claims the due rows there is room for and starts their deliveries without
 * waiting for them, so a delivery in flight never holds back a claim. It claims again at once
 * when a delivery ends with work left or frees room that a full claim had taken; otherwise the
 * next claim waits the poll interval. A failed claim is logged and the next one scheduled
 * anyway. On shutdown no new claim or POST starts, and every delivery in flight (its POST
 * finishes or times out) is awaited and releases its lease, before the database closes.
 */
export class DeliveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  /** The claim in progress. */
  private claiming?: Promise<void>;
  /** Claim again as soon as the claim in progress ends. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly pollMs: number,
    private readonly engine: DeliveryEngine,
    private readonly name: string,
  ) {
    this.logger = new Logger(name);
  }

  onApplicationBootstrap(): void {
    if (this.pollMs === 0) return;
    this.schedule(Math.random() * this.pollMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.engine.stop();
    clearTimeout(this.timer);
    await this.claiming;
    await this.engine.drain();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.claimNow(), delayMs);
    // A pending claim never keeps the process alive.
    this.timer.unref();
  }

  private claimNow(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.claiming = this.claim().then(() => {
      this.claiming = undefined;
      if (!this.again) return this.schedule(this.pollMs);
      this.again = false;
      this.claimNow();
    });
  }

  private async claim(): Promise<void> {
    try {
      const { deliveries, full } = await this.engine.startDue();
      for (const delivery of deliveries) {
        void delivery.then((more) => {
          if (more || full) this.claimNow();
        });
      }
    } catch (error) {
      this.logger.error(`${this.name} claim failed: ${String(error)}`);
    }
  }
}
