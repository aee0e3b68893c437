import {
  authorizeInteractively,
  browser,
  login,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Abuse cases", OAuth provider endpoints: clickjacking of the consent page
 * and a 307 that would re-post the password to the client (RFC 9700 sections 4.16 and 4.12).
 */
describe('OAuth provider abuse cases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('lets no other site frame the consent page, and sends no Referer from it', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const afterLogin = await login(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    expect(afterLogin.status).toBe(303);
    expect(afterLogin.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const consent = await agent.get(afterLogin.headers.location);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('name="decision" value="approve"');
    expect(consent.headers['x-frame-options']).toBe('DENY');
    expect(consent.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(consent.headers['referrer-policy']).toBe('no-referrer');
    expect(consent.headers['cache-control']).toBe('no-store');
  });

  it('answers the password form with 303 when it sends the code straight to the client, so the password is never re-posted there', async () => {
    const { application } = await oauthSetup(t.app);
    const first = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    expect(first.code).toBeDefined();
    // A new browser: the sign-in form is answered with the code, the earlier grant covering it.
    const res = await login(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
