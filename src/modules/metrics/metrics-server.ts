import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../../common/metrics/metrics';
import type { PromMetrics } from './prom-metrics';

/** The one path of the metrics listener. */
export const METRICS_PATH = '/metrics';

/**
 * The metrics listener (METRICS_PORT on METRICS_HOST, loopback by default): a plain node:http
 * server in the same process, apart from the main port, answering GET /metrics in Prometheus's
 * text format and 404 to anything else. It starts with the application and closes with it.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(Metrics) private readonly metrics: PromMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, this.config.metricsHost, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics: http://${this.config.metricsHost}:${this.port}${METRICS_PATH}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** The bound port (METRICS_PORT=0 picks a free one). */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    try {
      const body = await this.metrics.registry.metrics();
      res.writeHead(200, { 'content-type': this.metrics.registry.contentType });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error(`Metrics scrape failed: ${String(error)}`);
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Scrape failed\n');
    }
  }
}
