import type { PoolState, WebhookEndpointLag } from '../../common/metrics/metrics';
import { PromMetrics } from './prom-metrics';

describe('PromMetrics scrape', () => {
  it("reads the pool before the scrape's own queries wait for a connection, and the webhook lags once", async () => {
    const metrics = new PromMetrics();
    // A pool of one busy connection: each query the scrape starts waits for it.
    const pool: PoolState = { total: 1, idle: 0, waiting: 0, max: 1 };
    let lagReads = 0;
    const lags: WebhookEndpointLag[] = [{ endpointId: 7, lagSeconds: 12, failing: true }];
    // The webhook gauges registered before the pool's reader is given, as at boot.
    metrics.onWebhooksScrape(async () => {
      lagReads += 1;
      pool.waiting += 1;
      await Promise.resolve();
      pool.waiting -= 1;
      return lags;
    });
    metrics.onPoolScrape(() => ({ ...pool }));

    const text = await metrics.registry.metrics();

    expect(text).toMatch(/^idsvc_db_pool_waiting 0$/m);
    expect(text).toMatch(/^idsvc_db_pool_in_use 1$/m);
    expect(text).toMatch(/^idsvc_webhook_endpoint_lag_seconds\{endpoint_id="7"\} 12$/m);
    expect(text).toMatch(/^idsvc_webhook_endpoints_failing 1$/m);
    expect(lagReads).toBe(1);
  });
});
