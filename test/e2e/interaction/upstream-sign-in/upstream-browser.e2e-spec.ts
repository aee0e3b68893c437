import type { Browser } from 'playwright-core';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import {
  authorizePath,
  authorizeParams,
  exchangeCode,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { startGithubStandIn, type GithubStandIn } from '../../../support/upstream-standins/github';
import { useUpstreamBed } from '../../../support/upstream-bed';
import { launchChromium } from '../../../support/chromium';

// Sign-in through an upstream provider in a real browser: Debian's Chromium driven by
// playwright-core, as in oauth-browser.e2e-spec.ts; never skipped.

describe('Upstream sign-in in Chromium', () => {
  const bed = useUpstreamBed({ publicBaseUrl: true });
  let github: GithubStandIn;
  let chromium: Browser;

  beforeAll(async () => {
    github = await startGithubStandIn();
    github.interactive = true;
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await github?.close();
  });

  it('login page, click the provider, the provider, consent, back at the client with a code', async () => {
    bed.upstream.account = {
      sub: 'corp-7',
      email: 'erin@corp.example',
      email_verified: true,
      preferred_username: 'erin',
    };
    const { application } = await oauthSetup(bed.t.app, { authMethod: 'none' });
    await bed.addProvider();
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });
    const { challenge } = pkce();
    await page.goto(
      bed.base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, state: 'up-state' }),
        ),
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    await page.screenshot({ path: '/tmp/upstream-login.png' });
    await Promise.all([page.waitForLoadState(), page.click('text=Sign in with Corp SSO')]);
    // The provider (its interaction finishes at once) sent the browser back: consent here.
    expect(new URL(page.url()).pathname).toBe('/oauth2/consent');
    expect(await page.textContent('body')).toContain('erin');
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);
    expect(callback?.searchParams.get('state')).toBe('up-state');
    expect(callback?.searchParams.get('code')).toEqual(expect.any(String));
    await context.close();
  });

  /** A client with PKCE, GitHub configured, and a JS-less browser page at the login page. */
  async function toGithubAtLoginPage() {
    const { application } = await oauthSetup(bed.t.app, { authMethod: 'none' });
    await bed.t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: github.clientId,
      clientSecret: github.clientSecret,
      settings: github.settings,
    });
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const callbacks: URL[] = [];
    // The client's redirect URI is served nowhere: the browser's request for it carries what the
    // client would get. Observed rather than intercepted: page.route and context.route never saw
    // it in this flow (through the stand-in's form POST), the navigation failing on DNS instead.
    page.on('request', (request) => {
      if (request.url().startsWith(REDIRECT_URI)) callbacks.push(new URL(request.url()));
    });
    const { verifier, challenge } = pkce();
    await page.goto(
      bed.base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, state: 'gh-state' }),
        ),
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    await Promise.all([
      page.waitForURL(`${github.origin}/login/oauth/authorize?**`),
      page.click('text=Sign in with GitHub'),
    ]);
    // GitHub's own authorization page, waiting for the person.
    await page.waitForSelector('button:has-text("Authorize")');
    return { application, context, page, callbacks, verifier };
  }

  it('GitHub: login page, click GitHub, Authorize at GitHub, consent, a code; userinfo has the identity', async () => {
    github.user = {
      id: 583231,
      login: 'octocat',
      name: 'The Octocat',
      avatar_url: 'https://avatars.githubusercontent.com/u/583231',
      emails: [
        { email: 'octocat@github.example', primary: true, verified: true, visibility: 'public' },
      ],
    };
    const { application, context, page, callbacks, verifier } = await toGithubAtLoginPage();
    await Promise.all([
      page.waitForURL(`${bed.base}/oauth2/consent**`),
      page.click('button:has-text("Authorize")'),
    ]);
    expect(await page.textContent('body')).toContain('octocat');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(REDIRECT_URI)),
      page.click('button[name="decision"][value="approve"]'),
    ]);
    const callback = new URL(request.url());
    expect(callbacks).toEqual([callback]);
    expect(callback.searchParams.get('state')).toBe('gh-state');
    const code = callback.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    await context.close();

    const token = await exchangeCode(bed.t.app, application.clientId, code, verifier);
    const userinfo = await bed.t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token.access_token}`);
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({ username: 'octocat', email: 'octocat@github.example' });
    expect(userinfo.body.upstreams).toEqual([
      expect.objectContaining({
        upstream_type: 'github',
        upstream_user_id: '583231',
        username: 'octocat',
      }),
    ]);
  });

  it('GitHub: Cancel at GitHub ends on a clear page at the service, no code for the client', async () => {
    github.user = null;
    const { context, page, callbacks } = await toGithubAtLoginPage();
    const [response] = await Promise.all([
      page.waitForResponse((r) =>
        r.url().startsWith(`${bed.base}/api/auth/upstream/github/callback?`),
      ),
      page.click('button:has-text("Cancel")'),
    ]);
    expect(response.status()).toBe(403);
    await page.waitForURL(`${bed.base}/api/auth/upstream/github/callback?**`);
    expect(await page.textContent('h1')).toContain('Sign-in cancelled');
    expect(callbacks).toHaveLength(0);
    const [{ count }] = await bed.t.dataSource.query(
      'SELECT count(*)::int AS count FROM upstream_identities',
    );
    expect(count).toBe(0);
    await context.close();
  });
});
