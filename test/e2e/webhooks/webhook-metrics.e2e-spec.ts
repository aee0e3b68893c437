import { increase, scrape, valueOf } from '../../support/metrics';
import { useWebhookBed } from '../../support/webhook-bed';

// docs/operations.md, "Metrics": deliveries by outcome, failing endpoints, lag per endpoint.
describe('webhook metrics', () => {
  const bed = useWebhookBed({ env: { WEBHOOKS_ALLOW_INSECURE: 'true', METRICS_PORT: '0' } });

  it('counts deliveries by outcome and reports each endpoint lag and the failing ones', async () => {
    const healthy = await bed.addEndpoint('/healthy');
    const failing = await bed.addEndpoint('/failing');
    bed.receiver.script('/failing', { status: 500 });
    const before = (await scrape(bed.t.app)).samples;
    await bed.record();
    bed.clock.advance(90_000);

    const waiting = (await scrape(bed.t.app)).samples;
    const lag = 'idsvc_webhook_endpoint_lag_seconds';
    expect(valueOf(waiting, lag, { endpoint_id: String(healthy.id) })).toBe(90);
    expect(valueOf(waiting, lag, { endpoint_id: String(failing.id) })).toBe(90);

    await bed.round();
    const after = (await scrape(bed.t.app)).samples;
    const name = 'idsvc_webhook_deliveries_total';
    expect(increase(before, after, name, { kind: 'delivery', outcome: 'success' })).toBe(1);
    expect(increase(before, after, name, { kind: 'delivery', outcome: 'http_error' })).toBe(1);
    expect(valueOf(after, lag, { endpoint_id: String(healthy.id) })).toBe(0);
    expect(valueOf(after, lag, { endpoint_id: String(failing.id) })).toBe(90);
    expect(valueOf(after, 'idsvc_webhook_endpoints_failing')).toBe(1);
  });
});
