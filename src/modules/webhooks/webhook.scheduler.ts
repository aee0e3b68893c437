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
 * decide which instance serves which endpoint. A round that left work (an endpoint's batch was
 * full) is followed by the next one at once; otherwise the next waits the poll interval. A
 * failed round is logged and the next one is scheduled anyway. On shutdown no new round or POST starts, the round in progress (a POST in
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
      this.current = this.tick().then((more) => {
        this.current = undefined;
        this.schedule(more ? 0 : this.config.webhooksPollMs);
      });
    }, delayMs);
    // A pending round never keeps the process alive.
    this.timer.unref();
  }

  /** One round; true when it left work. */
  private async tick(): Promise<boolean> {
    try {
      return (await this.delivery.runRound()).more;
    } catch (error) {
      this.logger.error(`Webhook round failed: ${String(error)}`);
      return false;
    }
  }
}
