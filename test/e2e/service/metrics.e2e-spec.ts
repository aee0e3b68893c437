import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey, createApplication, createUser } from '../../factories';
import { increase, metricsUrl, scrape, valueOf } from '../../support/metrics';
import { createTestApp, TestApp } from '../../support/test-app';

/** TCP listeners of this process (the main port, the metrics port, …). */
const tcpListeners = (): number =>
  process.getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap').length;

// Before any other app of this file, so that no listener of another is still closing.
describe('metrics off (METRICS_PORT unset)', () => {
  it('opens no listener but the main port', async () => {
    const before = tcpListeners();
    const t = await createTestApp();
    try {
      expect(tcpListeners() - before).toBe(1);
      expect((await t.http().get('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

// docs/operations.md, "Metrics": the listener, the HTTP family, the pool and the process.
describe('metrics listener and HTTP metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('serves GET /metrics in the Prometheus text format, and nothing else', async () => {
    const mainPort = (t.app.getHttpServer() as Server).address() as AddressInfo;
    expect(new URL(metricsUrl(t.app)).port).not.toBe(String(mainPort.port));
    const res = await fetch(metricsUrl(t.app));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const path of ['/', '/metrics/x', '/health/live']) {
      const other = await fetch(new URL(path, metricsUrl(t.app)));
      expect(other.status).toBe(404);
    }
    const post = await fetch(metricsUrl(t.app), { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('never serves /metrics on the main port', async () => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(404);
  });

  it('counts requests by route template, method and status class, never by raw path', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id, ['user:read']);
    const userId = '918273645546372819';
    const before = (await scrape(t.app)).samples;
    const res = await t
      .http()
      .get(`/api/v1/app/users/${userId}`)
      .set('Authorization', `Bearer ${plaintext}`);
    await t.http().get('/no/such/page');
    const { text, samples } = await scrape(t.app);
    const route = '/api/v1/app/users/:userId';
    const labels = { method: 'GET', route, status_class: `${Math.floor(res.status / 100)}xx` };
    expect(increase(before, samples, 'idsvc_http_requests_total', labels)).toBe(1);
    const count = 'idsvc_http_request_duration_seconds_count';
    expect(increase(before, samples, count, labels)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status_class: '4xx' };
    expect(increase(before, samples, 'idsvc_http_requests_total', unmatched)).toBe(1);

    expect(text).not.toContain(userId);
    expect(text).not.toContain('/no/such/page');
  });

  it('reports the database pool at each scrape', async () => {
    const { samples } = await scrape(t.app);
    for (const name of ['in_use', 'idle', 'waiting', 'max']) {
      expect(samples.some((s) => s.name === `idsvc_db_pool_${name}`)).toBe(true);
    }
    expect(valueOf(samples, 'idsvc_db_pool_max')).toBeGreaterThanOrEqual(1);
  });

  it('counts failed statements by SQLSTATE class', async () => {
    await createUser(t.app, { username: 'taken', email: 'taken@example.org' });
    const before = (await scrape(t.app)).samples;
    await expect(
      createUser(t.app, { username: 'taken', email: 'other@example.org' }),
    ).rejects.toThrow('already in use');
    const { samples } = await scrape(t.app);
    const errors = increase(before, samples, 'idsvc_db_statement_errors_total', { class: '23' });
    expect(errors).toBe(1);
  });

  it("exports the process's default metrics and the event-loop lag", async () => {
    const { samples } = await scrape(t.app);
    expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
  });
});
