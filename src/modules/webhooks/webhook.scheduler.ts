import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliveryService } from './webhook-delivery.service';

/**
 * Keeps an instance's deliveries going (docs/webhooks.md, "Several instances"): every
 * WEBHOOKS_POLL_MS (0 = never) it claims the due endpoints there is room for and starts their
 * deliveries without waiting for them, so a delivery in flight never holds back a claim. It
 * claims again at once when a delivery ends with work left (a full batch) or frees room that a
 * full claim had taken; otherwise the next claim waits the poll interval. A failed claim is
 * logged and the next one scheduled anyway. On shutdown no new claim or POST starts, and every
 * delivery in flight (its POST finishes or times out) is awaited and releases its lease, before
 * the database closes.
 */
@Injectable()
export class WebhookScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer?: NodeJS.Timeout;
  /** The claim in progress. */
  private claiming?: Promise<void>;
  /** Claim again as soon as the claim in progress ends. */
  private again = false;
  private stopped = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly delivery: WebhookDeliveryService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.webhooksPollMs === 0) return;
    this.schedule(Math.random() * this.config.webhooksPollMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.delivery.stop();
    clearTimeout(this.timer);
    await this.claiming;
    await this.delivery.drain();
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
      if (!this.again) return this.schedule(this.config.webhooksPollMs);
      this.again = false;
      this.claimNow();
    });
  }

  private async claim(): Promise<void> {
    try {
      const { deliveries, full } = await this.delivery.startDue();
      for (const delivery of deliveries) {
        void delivery.then((more) => {
          if (more || full) this.claimNow();
        });
      }
    } catch (error) {
      this.logger.error(`Webhook claim failed: ${String(error)}`);
    }
  }
}
