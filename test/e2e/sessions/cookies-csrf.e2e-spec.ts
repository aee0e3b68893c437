import type { Response } from 'supertest';
import { createUser } from '../../factories';
import { consoleClient, sessionCookieFrom, TEST_SIGN_IN_CLIENT } from '../../support/console';
import {
  authorizeParams,
  authorizePath,
  expectStatus,
  hiddenInput,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
} from '../../support/oauth';
import { SessionService } from '../../../src/modules/sessions/session.service';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Cookies and CSRF": the CSRF cookie is a nonce the server signed, form
 * tokens are bound to it and to the session, and behind https every cookie is `__Host-`.
 */

/** The cookies a response sets, as name → value (a cleared cookie maps to ''). */
function setCookies(res: Response): Map<string, string> {
  const lines = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return new Map(
    lines.map((line) => {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** A browser that sends cookies by hand (supertest's jar keeps no Secure cookie over http). */
class Jar {
  readonly cookies = new Map<string, string>();
  readonly lines: string[] = [];

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(res: Response): Response {
    this.lines.push(...((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []));
    for (const [name, value] of setCookies(res)) {
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

describe('cookies and CSRF', () => {
  describe('over http (unprefixed names)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());
    beforeEach(() => t.truncate());

    /** GET /authorize → the login page's path for a fresh request of the demo client. */
    async function loginPath(): Promise<string> {
      const { application } = await oauthSetup(t.app);
      const params = authorizeParams({
        clientId: application.clientId,
        challenge: pkce().challenge,
      });
      const start = await t.http().get(authorizePath(params));
      expectStatus(start, 302);
      return start.headers.location;
    }

    it('refuses a login form whose CSRF cookie the attacker chose (planted), with its matching token', async () => {
      const path = await loginPath();
      const planted = 'attacker-chosen-value';
      // The attacker loads the form with the value they will plant and reads its token.
      const page = await t.http().get(path).set('Cookie', `idsvc_csrf=${planted}`);
      expectStatus(page, 200);
      // The planted value is not ours: the page sets a cookie of its own instead.
      expect(setCookies(page).get('idsvc_csrf')).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
      const res = await t
        .http()
        .post('/oauth2/login')
        .set('Cookie', `idsvc_csrf=${planted}`)
        .type('form')
        .send({
          request: hiddenInput(page.text, 'request'),
          csrf_token: hiddenInput(page.text, 'csrf_token'),
          username: 'alice',
          password: PASSWORD,
        });
      expect(res.status).toBe(403);
      expect(res.text).toContain('Form expired');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a cookie and token the client made up to match each other', async () => {
      const path = await loginPath();
      const page = await t.http().get(path);
      for (const value of ['x', `${'a'.repeat(43)}.${'b'.repeat(43)}`]) {
        const res = await t
          .http()
          .post('/oauth2/login')
          .set('Cookie', `idsvc_csrf=${value}`)
          .type('form')
          .send({
            request: hiddenInput(page.text, 'request'),
            csrf_token: value,
            username: 'alice',
            password: PASSWORD,
          });
        expect([value, res.status]).toEqual([value, 403]);
      }
    });

    it('accepts the token the server issued with its cookie', async () => {
      const jar = new Jar();
      const page = jar.take(await t.http().get(await loginPath()));
      const res = await t
        .http()
        .post('/oauth2/login')
        .set('Cookie', jar.header())
        .type('form')
        .send({
          request: hiddenInput(page.text, 'request'),
          csrf_token: hiddenInput(page.text, 'csrf_token'),
          username: 'alice',
          password: PASSWORD,
        });
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    });

    it("refuses a consent form posted in another session than the one it was shown to (the attacker's own)", async () => {
      const mallory = new Jar();
      const page = mallory.take(await t.http().get(await loginPath()));
      const afterLogin = mallory.take(
        await t
          .http()
          .post('/oauth2/login')
          .set('Cookie', mallory.header())
          .type('form')
          .send({
            request: hiddenInput(page.text, 'request'),
            csrf_token: hiddenInput(page.text, 'csrf_token'),
            username: 'alice',
            password: PASSWORD,
          }),
      );
      expectStatus(afterLogin, 303);
      const consent = await t
        .http()
        .get(afterLogin.headers.location)
        .set('Cookie', mallory.header());
      expectStatus(consent, 200);
      // The victim's browser carries the attacker's (server-issued) CSRF cookie, planted, and
      // its own session: the attacker's token does not fit that session.
      const bob = await createUser(t.app, { username: 'bob', password: PASSWORD });
      const { cookieValue } = await t.app
        .get(SessionService)
        .create(bob.id, 'password', TEST_SIGN_IN_CLIENT);
      const form = {
        request: hiddenInput(consent.text, 'request'),
        csrf_token: hiddenInput(consent.text, 'csrf_token'),
        decision: 'approve',
      };
      const planted = `idsvc_csrf=${mallory.cookies.get('idsvc_csrf')}; idsvc_session=${cookieValue}`;
      const res = await t
        .http()
        .post('/oauth2/consent')
        .set('Cookie', planted)
        .type('form')
        .send(form);
      expect(res.status).toBe(403);
      expect(res.text).toContain('Form expired');
      // In the session it was shown to, the same form goes through.
      const own = await t
        .http()
        .post('/oauth2/consent')
        .set('Cookie', mallory.header())
        .type('form')
        .send(form);
      expect(own.status).toBe(303);
      expect(query(own.headers.location).code).toEqual(expect.any(String));
    });

    it('refuses console changes whose X-CSRF-Token matches a planted CSRF cookie; the issued token works', async () => {
      const alice = await createUser(t.app, { username: 'alice', password: PASSWORD });
      const { cookieValue } = await t.app
        .get(SessionService)
        .create(alice.id, 'password', TEST_SIGN_IN_CLIENT);
      const client = consoleClient(t, alice.id, cookieValue);
      const planted = await t
        .http()
        .delete('/api/console/session')
        .set('Cookie', `${client.cookie}; idsvc_csrf=chosen`)
        .set('X-CSRF-Token', 'chosen');
      expect(planted.status).toBe(403);
      expect(planted.body).toEqual({ error: 'csrf_failed', message: expect.any(String) });
      const issued = (await t.http().get('/api/console/session').set('Cookie', client.cookie)).body
        .csrfToken as string;
      const res = await t
        .http()
        .delete('/api/console/session')
        .set('Cookie', client.cookie)
        .set('X-CSRF-Token', issued);
      expect(res.status).toBe(204);
    });
  });

  describe('behind https (PUBLIC_BASE_URL=https://…)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://id.example' } });
    });
    afterAll(() => t.close());
    beforeEach(() => t.truncate());

    /** Every Set-Cookie: `__Host-` name, Secure, Path=/, HttpOnly, SameSite=Lax, no Domain. */
    function expectHostCookies(lines: string[]): void {
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toMatch(/^__Host-idsvc_(session|csrf|upstream)=/);
        const attributes = line
          .split(';')
          .slice(1)
          .map((part) => part.trim().toLowerCase());
        expect([line, attributes]).toEqual([
          line,
          expect.arrayContaining(['secure', 'path=/', 'httponly', 'samesite=lax']),
        ]);
        expect(attributes.some((attribute) => attribute.startsWith('domain'))).toBe(false);
      }
    }

    it("sets the language switcher's ui_locale cookie Secure, HttpOnly, SameSite=Lax, host-only: the one cookie without __Host-, a preference that grants nothing", async () => {
      const res = await t.http().get('/oauth2/language?locale=zh-CN&return=%2Faccount');
      expectStatus(res, 303);
      expect(res.headers.location).toBe('/account');
      const lines = res.headers['set-cookie'] as unknown as string[];
      expect(lines).toHaveLength(1);
      const [pair, ...attributes] = lines[0].split(';').map((part) => part.trim().toLowerCase());
      expect(pair).toBe('ui_locale=zh-cn');
      expect(attributes).toEqual(
        expect.arrayContaining(['secure', 'path=/', 'httponly', 'samesite=lax']),
      );
      expect(attributes.some((attribute) => attribute.startsWith('domain'))).toBe(false);
    });

    it('sets only __Host- cookies through login, consent and console sign-in/out, and the flow works with them', async () => {
      const { application } = await oauthSetup(t.app);
      const jar = new Jar();
      const params = authorizeParams({
        clientId: application.clientId,
        challenge: pkce().challenge,
      });
      const start = await t.http().get(authorizePath(params));
      expectStatus(start, 302);
      const page = jar.take(await t.http().get(start.headers.location));
      expectStatus(page, 200);
      const afterLogin = jar.take(
        await t
          .http()
          .post('/oauth2/login')
          .set('Cookie', jar.header())
          .type('form')
          .send({
            request: hiddenInput(page.text, 'request'),
            csrf_token: hiddenInput(page.text, 'csrf_token'),
            username: 'alice',
            password: PASSWORD,
          }),
      );
      expectStatus(afterLogin, 303);
      expect([...jar.cookies.keys()].sort()).toEqual(['__Host-idsvc_csrf', '__Host-idsvc_session']);
      const consent = jar.take(
        await t.http().get(afterLogin.headers.location).set('Cookie', jar.header()),
      );
      expectStatus(consent, 200);
      const approved = await t
        .http()
        .post('/oauth2/consent')
        .set('Cookie', jar.header())
        .type('form')
        .send({
          request: hiddenInput(consent.text, 'request'),
          csrf_token: hiddenInput(consent.text, 'csrf_token'),
          decision: 'approve',
        });
      expectStatus(approved, 303);
      expect(query(approved.headers.location).code).toEqual(expect.any(String));

      // The console reads the same prefixed session cookie, and never the unprefixed name.
      const session = await t.http().get('/api/console/session').set('Cookie', jar.header());
      expect(session.status).toBe(200);
      const unprefixed = `idsvc_session=${jar.cookies.get('__Host-idsvc_session')}`;
      expect((await t.http().get('/api/console/session').set('Cookie', unprefixed)).status).toBe(
        401,
      );
      const signedOut = jar.take(
        await t
          .http()
          .delete('/api/console/session')
          .set('Cookie', jar.header())
          .set('X-CSRF-Token', session.body.csrfToken as string),
      );
      expect(signedOut.status).toBe(204);
      const signedIn = jar.take(
        await t.http().post('/api/console/session').send({ login: 'alice', password: PASSWORD }),
      );
      expect(signedIn.status).toBe(200);
      expectHostCookies(jar.lines);
      expect(jar.lines.length).toBe(4);
    });

    it('ignores unprefixed CSRF and session cookies (what a sibling subdomain could plant)', async () => {
      const { application } = await oauthSetup(t.app);
      const params = authorizeParams({
        clientId: application.clientId,
        challenge: pkce().challenge,
      });
      const start = await t.http().get(authorizePath(params));
      const jar = new Jar();
      const page = jar.take(await t.http().get(start.headers.location));
      const csrf = jar.cookies.get('__Host-idsvc_csrf');
      const res = await t
        .http()
        .post('/oauth2/login')
        .set('Cookie', `idsvc_csrf=${csrf}`)
        .type('form')
        .send({
          request: hiddenInput(page.text, 'request'),
          csrf_token: hiddenInput(page.text, 'csrf_token'),
          username: 'alice',
          password: PASSWORD,
        });
      expect(res.status).toBe(403);
      const signedIn = await t
        .http()
        .post('/api/console/session')
        .send({ login: 'alice', password: PASSWORD });
      expect(sessionCookieFrom(signedIn)).toBeUndefined();
      expect(setCookies(signedIn).get('__Host-idsvc_session')).toEqual(expect.any(String));
    });
  });
});
