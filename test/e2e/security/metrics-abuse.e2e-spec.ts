import { Server } from 'node:net';
import { createApiKey, createApplication } from '../../factories';
import { scrape } from '../../support/metrics';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Abuse cases", metrics and traces: what a client can do to the metrics
 * through the main port, and where the listener is reachable.
 */

/** The label sets of every sample of `family` in a scrape. */
const seriesOf = (samples: { name: string; labels: Record<string, string> }[], family: string) =>
  samples.filter((s) => s.name === family).map((s) => JSON.stringify(s.labels));

describe('metrics abuse cases', () => {
  let t: TestApp;
  let listens: unknown[][];
  beforeAll(async () => {
    const listen = jest.spyOn(Server.prototype, 'listen');
    try {
      t = await createTestApp({ env: { METRICS_PORT: '0' } });
      listens = listen.mock.calls.map((args) => args as unknown[]);
    } finally {
      listen.mockRestore();
    }
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('binds the metrics listener to loopback by default (it asks for no credentials)', () => {
    const metricsListen = listens.filter(([port, host]) => port === 0 && host !== undefined);
    // The main port of the test app and the metrics port are both asked for port 0.
    expect(metricsListen.map(([, host]) => host)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('adds no series whatever paths, methods, grant types or credentials a client sends', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id, ['user:read']);
    const warm = async (i: number) => {
      await t.http().get(`/no/such/page/${i}`);
      await t
        .http()
        .get(`/api/v1/app/users/${900000 + i}`)
        .set('Authorization', `Bearer ${plaintext}`);
      await t.http().options(`/api/v1/app/users/${900000 + i}`);
      await t
        .http()
        .post('/api/oauth2/token')
        .type('form')
        .send({ grant_type: `made-up-${i}`, client_id: `client-${i}` });
      await t
        .http()
        .post('/api/console/session')
        .send({ login: `user-${i}`, password: 'x' });
    };
    await warm(0);
    const { samples: before } = await scrape(t.app);
    for (let i = 1; i <= 10; i += 1) await warm(i);
    const { text, samples: after } = await scrape(t.app);

    for (const family of [
      'idsvc_http_requests_total',
      'idsvc_oauth_token_requests_total',
      'idsvc_logins_total',
    ]) {
      expect([family, seriesOf(after, family).sort()]).toEqual([
        family,
        seriesOf(before, family).sort(),
      ]);
    }
    for (const sent of ['/no/such/page/7', '900007', 'made-up-7', 'client-7', 'user-7', plaintext])
      expect([sent, text.includes(sent)]).toEqual([sent, false]);
  });
});
