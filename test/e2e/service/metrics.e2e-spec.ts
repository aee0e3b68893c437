import type { Server as HttpServer } from 'node:http';
import { Server, type AddressInfo } from 'node:net';
import { createApiKey, createApplication, createUser } from '../../factories';
import { increase, metricsUrl, scrape, valueOf } from '../../support/metrics';
import { createTestApp, TestApp } from '../../support/test-app';

/** The TCP ports (0: any) `boot` asks to listen on; the admin socket's path is left out. */
async function tcpListens<T>(boot: () => Promise<T>): Promise<{ value: T; ports: unknown[] }> {
  const listen = jest.spyOn(Server.prototype, 'listen');
  try {
    const value = await boot();
    const ports = listen.mock.calls.map(([first]) => first).filter((a) => typeof a === 'number');
    return { value, ports };
  } finally {
    listen.mockRestore();
  }
}

describe('metrics off (METRICS_PORT unset)', () => {
  it('opens no listener but the main port', async () => {
    const { value: t, ports } = await tcpListens(() => createTestApp());
    try {
      expect(ports).toHaveLength(1);
      expect((await t.http().get('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

// docs/operations.md, "Metrics": the listener, the HTTP family, the pool and the process.
describe('metrics listener and HTTP metrics', () => {
  let t: TestApp;
  let listens: unknown[];
  beforeAll(async () => {
    ({ value: t, ports: listens } = await tcpListens(() =>
      createTestApp({ env: { METRICS_PORT: '0' } }),
    ));
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('serves GET /metrics in the Prometheus text format, and nothing else', async () => {
    expect(listens).toHaveLength(2);
    const mainPort = (t.app.getHttpServer() as HttpServer).address() as AddressInfo;
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
