import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { UpstreamProvidersService } from '../../src/modules/upstreams/providers/upstream-providers.service';
import { authorizePath, authorizeParams, oauthSetup, pkce, REDIRECT_URI } from '../utils/oauth';
import { startOidcUpstream, type OidcUpstream } from '../utils/upstream-oidc';
import { createTestApp, TestApp } from '../utils/test-app';

// Sign-in through an upstream provider in a real browser (issue 11): Debian's Chromium driven by
// playwright-core, as in oauth-browser.e2e-spec.ts; never skipped.
const CHROMIUM = '/usr/bin/chromium';

/** A free loopback port: the service's PUBLIC_BASE_URL must name the port it listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('Upstream sign-in in Chromium', () => {
  let t: TestApp;
  let base: string;
  let upstream: OidcUpstream;
  let chromium: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it).`);
    }
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ port, env: { PUBLIC_BASE_URL: base } });
    upstream = await startOidcUpstream([`${base}/api/auth/upstream/corp/callback`]);
    const { chromium: launcher } = await import('playwright-core');
    chromium = await launcher.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await chromium?.close();
    await upstream?.close();
    await t?.close();
  });

  it('login page, click the provider, the provider, consent, back at the client with a code', async () => {
    await t.truncate();
    upstream.account = {
      sub: 'corp-7',
      email: 'erin@corp.example',
      email_verified: true,
      preferred_username: 'erin',
    };
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    await t.app.get(UpstreamProvidersService).create({
      id: 'corp',
      displayName: 'Corp SSO',
      kind: 'oidc',
      clientId: upstream.clientId,
      clientSecret: upstream.clientSecret,
      settings: { issuer: upstream.issuer },
    });
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });
    const { challenge } = pkce();
    await page.goto(
      base +
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
});
