import { runInApp } from '../../factories';
import { consoleWorld, type ConsoleWorld } from '../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../support/passkeys';
import type { SoftwareAuthenticator } from '../../support/software-authenticator';
import { createTestApp, TestApp } from '../../support/test-app';

// URIs the registration rule (applications/redirect-uri.ts) refuses, for redirect URIs and
// post-logout redirect URIs alike: plain http off loopback, a fragment, a dangerous scheme.
const REFUSED = ['http://evil.example/bye', 'https://rp.example/bye#x', 'javascript:alert(1)'];

/**
 * Registration of post_logout_redirect_uris (OpenID Connect RP-Initiated Logout 1.0 section 3,
 * docs/oidc.md): the CLI and the console API accept and refuse them as redirect URIs.
 */
describe('post-logout redirect URIs: registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const cli = (...argv: string[]) => runInApp(t.app, argv);
  const stored = async (): Promise<{ id: number; uris: string[] }[]> =>
    t.dataSource.query(
      'SELECT id, post_logout_redirect_uris AS uris FROM applications ORDER BY id',
    );

  describe('CLI app create --post-logout-redirect-uri', () => {
    it('registers them (repeatable, duplicates dropped) and lists them', async () => {
      const created = await cli(
        'app',
        'create',
        '--name',
        'Web',
        '--redirect-uri',
        'https://rp.example/cb',
        '--post-logout-redirect-uri',
        'https://rp.example/bye',
        '--post-logout-redirect-uri',
        'com.example.app:/bye',
        '--post-logout-redirect-uri',
        'https://rp.example/bye',
        '--json',
      );
      expect(created.exitCode).toBe(0);
      const list = JSON.parse((await cli('app', 'list', '--json')).stdout) as {
        items: { postLogoutRedirectUris: string[] }[];
      };
      const expected = ['https://rp.example/bye', 'com.example.app:/bye'];
      expect(list.items).toEqual([expect.objectContaining({ postLogoutRedirectUris: expected })]);
      expect(await stored()).toEqual([{ id: 1, uris: expected }]);
    });

    it('defaults to none', async () => {
      const args = ['app', 'create', '--name', 'W', '--redirect-uri', 'https://rp.example/cb'];
      expect((await cli(...args, '--json')).exitCode).toBe(0);
      expect(await stored()).toEqual([{ id: 1, uris: [] }]);
    });

    it.each(REFUSED)('refuses %s with invalid_request and creates nothing', async (uri) => {
      const res = await cli(
        'app',
        'create',
        '--name',
        'Web',
        '--redirect-uri',
        'https://rp.example/cb',
        '--post-logout-redirect-uri',
        uri,
        '--json',
      );
      expect(res.exitCode).toBe(1);
      expect(JSON.parse(res.stdout)).toEqual({
        error: 'invalid_request',
        message: `post-logout redirect URIs not allowed: ${uri}`,
      });
      expect(await stored()).toEqual([]);
    });
  });

  describe('console API postLogoutRedirectUris', () => {
    let w: ConsoleWorld;
    let authenticator: SoftwareAuthenticator;
    beforeEach(async () => {
      w = await consoleWorld(t);
      authenticator = newAuthenticator();
      await registerPasskey(w.admin, authenticator);
    });
    const path = () => `/api/console/applications/${w.applicationId}`;
    /** Changing where logouts may return to is a client setting: confirmed with a passkey. */
    const confirmed = async (postLogoutRedirectUris: string[]): Promise<string> =>
      confirmationToken(w.admin, authenticator, {
        action: 'client_settings.update',
        applicationId: w.applicationId,
        settings: { postLogoutRedirectUris },
      });

    it('an admin sets and clears them; the admin detail shows them, a viewer cannot change them', async () => {
      const uris = ['https://rp.example/bye', 'http://127.0.0.1:8123/bye'];
      const sent = [...uris, uris[0]];
      const set = await w.admin
        .request('patch', path())
        .set(CONFIRMATION_HEADER, await confirmed(sent))
        .send({ postLogoutRedirectUris: sent });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ role: 'admin', postLogoutRedirectUris: uris });
      const detail = await w.admin.request('get', path()).expect(200);
      expect(detail.body.postLogoutRedirectUris).toEqual(uris);
      expect((await w.viewer.request('get', path())).body).not.toHaveProperty(
        'postLogoutRedirectUris',
      );
      const viewer = await w.viewer.request('patch', path()).send({ postLogoutRedirectUris: [] });
      expect(viewer.status).toBe(403);

      const cleared = await w.admin
        .request('patch', path())
        .set(CONFIRMATION_HEADER, await confirmed([]))
        .send({ postLogoutRedirectUris: [] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.postLogoutRedirectUris).toEqual([]);
    });

    it('accepts them on creation', async () => {
      const res = await w.owner
        .request('post', '/api/console/applications')
        .send({ name: 'RP', postLogoutRedirectUris: ['https://rp.example/bye'] });
      expect(res.status).toBe(201);
      expect(res.body.postLogoutRedirectUris).toEqual(['https://rp.example/bye']);
    });

    it('refuses what the redirect-URI rule refuses, and a malformed list, changing nothing', async () => {
      const cases: [unknown, string][] = [
        ...REFUSED.map((uri): [unknown, string] => [[uri], 'invalid_request']),
        ['https://rp.example/bye', 'invalid_body'],
        [[1], 'invalid_body'],
      ];
      for (const [value, error] of cases) {
        const res = await w.admin.request('patch', path()).send({ postLogoutRedirectUris: value });
        expect([value, res.status, res.body.error]).toEqual([value, 400, error]);
      }
      const [app] = (await stored()).filter((row) => row.id === w.applicationId);
      expect(app.uris).toEqual([]);
    });
  });
});
