import { createApiKey, createApplication } from '../../factories';
import { increase, scrape, type Sample } from '../../support/metrics';
import {
  authorizeInteractively,
  browser,
  exchangeCode,
  expectStatus,
  login,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';

// docs/operations.md, "Metrics": the token endpoint's outcomes, the logins, the batch sizes.
describe('OAuth metrics', () => {
  let t: TestApp;
  let before: Sample[];
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    before = (await scrape(t.app)).samples;
  });

  const grown = async (name: string, labels: Record<string, string>): Promise<number> =>
    increase(before, (await scrape(t.app)).samples, name, labels);

  it('counts token answers by grant type and outcome: ok, then invalid_grant for a spent code', async () => {
    const { application } = await oauthSetup(t.app);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge,
    });
    await exchangeCode(t.app, application.clientId, code, verifier);
    const again = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    });
    expect(again.body.error).toBe('invalid_grant');
    const bogus = await tokenRequest(t.app, { grant_type: 'password', client_id: 'x' });
    expectStatus(bogus, 401);
    const name = 'idsvc_oauth_token_requests_total';
    const grant = 'authorization_code';
    expect(await grown(name, { grant_type: grant, outcome: 'ok' })).toBe(1);
    expect(await grown(name, { grant_type: grant, outcome: 'invalid_grant' })).toBe(1);
    expect(await grown(name, { grant_type: 'unsupported', outcome: 'invalid_client' })).toBe(1);
  });

  it('counts password sign-ins by outcome, with no user name in the output', async () => {
    const { application } = await oauthSetup(t.app, { username: 'metricsuser' });
    const { challenge } = pkce();
    const wrong = await login(browser(t.app), {
      clientId: application.clientId,
      challenge,
      username: 'metricsuser',
      password: 'not the password',
    });
    expectStatus(wrong, 401);
    const right = await login(browser(t.app), {
      clientId: application.clientId,
      challenge,
      username: 'metricsuser',
    });
    expectStatus(right, 303);
    const name = 'idsvc_logins_total';
    expect(await grown(name, { method: 'password', outcome: 'success' })).toBe(1);
    expect(await grown(name, { method: 'password', outcome: 'invalid_credentials' })).toBe(1);
    expect((await scrape(t.app)).text).not.toContain('metricsuser');
  });

  it('records every item of concurrent API-key lookups in the batch sizes', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id);
    const requests = 20;
    const answers = await Promise.all(
      Array.from({ length: requests }, () =>
        t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(requests).fill(200));
    const batcher = { batcher: 'api_key_lookup' };
    // Each lookup is in exactly one batch, whatever the batches were.
    expect(await grown('idsvc_batch_size_sum', batcher)).toBe(requests);
    const batches = await grown('idsvc_batch_size_count', batcher);
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThanOrEqual(requests);
  });
});
