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
 * Runs a delivery round every WEBHOOKS_POLL_MS (0 = never) in every instance; the leases
 * decide which instance serves which endpoint. A failed round is logged and the next one is
 * scheduled anyway. On shutdown no new round or POST starts, the round in progress (a POST in
 * flight finishes or times out) is awaited and releases its leases, before the database closes.
 */
@Injectable()
export class WebhookScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
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
    await this.current;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick().finally(() => {
        this.current = undefined;
        this.schedule(this.config.webhooksPollMs);
      });
    }, delayMs);
    // A pending round never keeps the process alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.delivery.runRound();
    } catch (error) {
      this.logger.error(`Webhook round failed: ${String(error)}`);
    }
  }
}
