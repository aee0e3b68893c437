import type { DataSource } from 'typeorm';
import { PENDING_TTL_SECONDS } from '../../../../src/modules/oauth/authorize/pending-authorizations.service';
import { MAX_STATE_LENGTH } from '../../../../src/modules/oauth/authorize/checks/check-state';
import {
  authorizeParams,
  authorizePath,
  browser,
  expectStatus,
  hiddenInput,
  ISSUER,
  login,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** Rows of every table of the service, by table name. */
async function rowCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const meta of dataSource.entityMetadatas) {
    const [{ n }] = await dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "${meta.tableName}"`,
    );
    counts[meta.tableName] = n;
  }
  return counts;
}

/**
 * A pending authorization request travels sealed with the browser until a
 * signed-in person answers it; anonymous requests store nothing.
 */
describe('Pending authorization requests without server-side storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** GET /authorize without a session; returns the sealed request of the login redirect. */
  async function sealedRequest(clientId: string, extra: Record<string, string> = {}) {
    const agent = browser(t.app);
    const params = authorizeParams({ clientId, challenge: pkce().challenge, extra });
    const res = await agent.get(authorizePath(params));
    expectStatus(res, 302);
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=v1\./);
    return { agent, request: query(res.headers.location).request };
  }

  it('stores nothing for 2000 anonymous authorization requests and their login pages', async () => {
    const { application } = await oauthSetup(t.app);
    const before = await rowCounts(t.dataSource);
    const http = t.http();
    for (let round = 0; round < 100; round += 1) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const params = authorizeParams({
            clientId: application.clientId,
            challenge: pkce().challenge,
            state: `s-${round}-${i}`,
          });
          const res = await http.get(authorizePath(params));
          expectStatus(res, 302);
          if (i === 0) expectStatus(await http.get(res.headers.location), 200);
        }),
      );
    }
    expect(await rowCounts(t.dataSource)).toEqual(before);
  });

  it('answers the expired-request page for a tampered, truncated, foreign or garbage request', async () => {
    const { application } = await oauthSetup(t.app);
    const { request } = await sealedRequest(application.clientId);
    const middle = Math.floor(request.length / 2);
    const flipped = request[middle] === 'A' ? 'B' : 'A';
    const candidates = [
      request.slice(0, middle) + flipped + request.slice(middle + 1),
      request.slice(0, -4),
      `v1.${'A'.repeat(100)}`,
      'v2.abc',
      'garbage',
      'x'.repeat(7_000),
    ];
    for (const candidate of candidates) {
      const page = await t.http().get(`/oauth2/login?request=${encodeURIComponent(candidate)}`);
      expect(page.status).toBe(400);
      expect(page.text).toContain('Request expired');
      const post = await t
        .http()
        .post('/oauth2/login')
        .type('form')
        .send({ request: candidate, csrf_token: 'x', username: 'alice', password: PASSWORD });
      expect(post.status).toBe(400);
      expect(post.text).toContain('Request expired');
    }
  });

  it('refuses a request once its lifetime has passed', async () => {
    const { application } = await oauthSetup(t.app);
    const { agent, request } = await sealedRequest(application.clientId);
    expectStatus(await agent.get(`/oauth2/login?request=${encodeURIComponent(request)}`), 200);
    t.clock.advance(PENDING_TTL_SECONDS * 1000);
    const page = await agent.get(`/oauth2/login?request=${encodeURIComponent(request)}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('Request expired');
  });

  it('answers a request once: replaying the consent form is refused', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const afterLogin = await login(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    expectStatus(afterLogin, 303);
    const page = await agent.get(afterLogin.headers.location);
    const form = {
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      decision: 'approve',
    };
    expectStatus(await agent.post('/oauth2/consent').type('form').send(form), 303);
    const replay = await agent.post('/oauth2/consent').type('form').send(form);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('Request expired');
    const reload = await agent.get(afterLogin.headers.location);
    expect(reload.status).toBe(400);
  });

  it('binds the CSRF token to the request: a token for another request is refused', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const params = () =>
      authorizeParams({ clientId: application.clientId, challenge: pkce().challenge });
    const first = await agent.get(await locationOf(agent, authorizePath(params())));
    const second = await agent.get(await locationOf(agent, authorizePath(params())));
    const res = await agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(second.text, 'request'),
        csrf_token: hiddenInput(first.text, 'csrf_token'),
        username: 'alice',
        password: PASSWORD,
      });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Form expired');
  });

  it(`accepts a state of ${MAX_STATE_LENGTH} characters and refuses a longer one`, async () => {
    const { application } = await oauthSetup(t.app);
    await sealedRequest(application.clientId, { state: 's'.repeat(MAX_STATE_LENGTH) });
    const longer = 's'.repeat(MAX_STATE_LENGTH + 1);
    const res = await t.http().get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          state: longer,
        }),
      ),
    );
    expectStatus(res, 302);
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(query(res.headers.location)).toEqual({
      error: 'invalid_request',
      error_description: `The state parameter must be at most ${MAX_STATE_LENGTH} characters`,
      state: longer,
      iss: ISSUER,
    });
  });
});

async function locationOf(agent: ReturnType<typeof browser>, path: string): Promise<string> {
  const res = await agent.get(path);
  expectStatus(res, 302);
  return res.headers.location;
}
