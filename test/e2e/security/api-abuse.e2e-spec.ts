import { createApiKey, createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Abuse cases", application API: rate-limit evasion by a forged client
 * address.
 */
describe('application API abuse cases', () => {
  // 12:00:10 UTC: the whole test runs inside one minute's window.
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 10));
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      clock: new FixedClock(start),
      env: { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3' },
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(start);
  });

  it('counts failed keys by the connecting address when no proxy is trusted: a forged X-Forwarded-For buys no new budget', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await t
        .http()
        .get('/api/v1/app/me')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .set('Authorization', `Bearer svc_live_guess${i}`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // The application's own bucket is apart: a valid key still answers.
    const valid = await t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`);
    expect(valid.status).toBe(200);
  });
});
