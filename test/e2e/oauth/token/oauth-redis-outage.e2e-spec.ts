import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  oauthSetup,
  pkce,
  query,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { RedisServer } from '../../../support/redis-server';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Sign-in, consent, silent authentication and the token endpoint do not depend
 * on Redis (sessions live in PostgreSQL, ADR 0003). Each test has its own redis-server child and
 * its own app; nothing here asserts a duration (a paused Redis may slow the rate limiter and the
 * login throttle until they notice, see ADR 0002).
 */
describe('OAuth while Redis is paused or killed', () => {
  let redis: RedisServer;
  let t: TestApp;

  beforeEach(async () => {
    redis = await RedisServer.start();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
    await t.truncate();
  });
  afterEach(async () => {
    await redis?.kill();
    await t?.close();
  });

  /** authorize → login → consent → code → token → refresh → prompt=none → code → token. */
  async function walkTheFlow(clientId: string, agent: Agent): Promise<void> {
    const first = pkce();
    const granted = await authorizeInteractively(agent, { clientId, challenge: first.challenge });
    expect(granted.state).toBe('st-123');
    const tokens = await exchangeCode(t.app, clientId, granted.code, first.verifier);
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expectStatus(refreshed, 200);
    const userinfo = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(userinfo.body.username).toBe('alice');

    await silentlyAgain(clientId, agent);
  }

  /** prompt=none with the browser's session → a code → tokens. */
  async function silentlyAgain(clientId: string, agent: Agent): Promise<void> {
    const { verifier, challenge } = pkce();
    const silent = await agent.get(
      authorizePath(authorizeParams({ clientId, challenge, extra: { prompt: 'none' } })),
    );
    expectStatus(silent, 302);
    const answer = query(silent.headers.location);
    expect(answer).toMatchObject({ state: 'st-123' });
    expect(answer.error).toBeUndefined();
    await exchangeCode(t.app, clientId, answer.code, verifier);
  }

  it('signs in, consents, silently re-authenticates and exchanges tokens with Redis paused', async () => {
    const { application } = await oauthSetup(t.app);
    redis.pause();
    await walkTheFlow(application.clientId, browser(t.app));
  });

  it('does all of it with Redis killed', async () => {
    const { application } = await oauthSetup(t.app);
    await redis.kill();
    await walkTheFlow(application.clientId, browser(t.app));
  });

  it('keeps working across a kill and a restart, without a restart of the service', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await redis.kill();
    await walkTheFlow(application.clientId, agent);
    await redis.restart();
    // The session created while Redis was down still signs the browser in.
    await silentlyAgain(application.clientId, agent);
    await walkTheFlow(application.clientId, browser(t.app));
  });
});
