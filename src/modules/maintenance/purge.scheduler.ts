import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { EventPartitionsService } from './event-partitions.service';
import { PurgeService } from './purge.service';

/** The first run waits a random part of this (or of the interval, if shorter) after boot. */
const FIRST_RUN_JITTER_SECONDS = 60;

/**
 * Runs the purge and the events partition job every PURGE_INTERVAL_SECONDS (0 = never). The
 * partition job also runs once at boot, awaited, so a fresh database has its months ahead before
 * the first request. The first scheduled run is jittered so instances started together do not all
 * try at once; a failed run is logged and the next one is scheduled anyway; on shutdown the timer
 * stops and a run in progress is awaited, so the database is not closed under it.
 */
@Injectable()
export class PurgeScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Purge');
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly purge: PurgeService,
    private readonly partitions: EventPartitionsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.keepPartitions();
    const interval = this.config.purgeIntervalSeconds;
    if (interval === 0) return;
    this.schedule(Math.random() * Math.min(interval, FIRST_RUN_JITTER_SECONDS));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delaySeconds: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick().finally(() => {
        this.current = undefined;
        this.schedule(this.config.purgeIntervalSeconds);
      });
    }, delaySeconds * 1000);
    // A pending purge never keeps the process alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    await this.purgeOnce();
    await this.keepPartitions();
  }

  private async purgeOnce(): Promise<void> {
    try {
      const result = await this.purge.runOnce();
      if (!result.ran) {
        this.logger.debug('Purge skipped: another run holds the lock');
        return;
      }
      const total = Object.values(result.deleted).reduce((sum, n) => sum + n, 0);
      if (total > 0) this.logger.log(`Purge deleted ${JSON.stringify(result.deleted)}`);
    } catch (error) {
      this.logger.error(
        `Purge failed, retrying in ${this.config.purgeIntervalSeconds} s: ${String(error)}`,
      );
    }
  }

  /** A failure leaves new events in the default partition until a run succeeds (docs/operations.md). */
  private async keepPartitions(): Promise<void> {
    try {
      await this.partitions.runOnce();
    } catch (error) {
      this.logger.error(`Events partition job failed: ${String(error)}`);
    }
  }
}
