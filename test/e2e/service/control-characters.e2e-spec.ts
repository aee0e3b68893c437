import supertest from 'supertest';
import { API_SCOPES } from '../../../src/modules/keys/scopes';
import { createApiKey } from '../../factories';
import { bearer } from '../../factories/app-users';
import { consoleSession, consoleWorld, type ConsoleWorld } from '../../support/console';
import {
  browser,
  expectStatus,
  hiddenInput,
  oauthSetup,
  openLogin,
  pkce,
  PASSWORD,
} from '../../support/oauth';
import { concretePath, listRoutes } from '../../support/routes';
import { createTestApp, TestApp } from '../../support/test-app';

/** One of each kind the service refuses: C0 (NUL, TAB, LF), DEL and C1 (NEL), with its name. */
const CONTROLS: [string, string][] = [
  ['NUL', '\u0000'],
  ['TAB', '\t'],
  ['LF', '\n'],
  ['DEL', '\u007f'],
  ['NEL (C1)', '\u0085'],
];

/** The browser pages' path prefixes (src/app.setup.ts, PAGE_PATHS). */
const PAGES =
  /^\/(oauth2|account|console|device)(\/|$)|^\/api\/(oidc\/auth|oidc\/logout|auth\/upstream)/;
/**
 * Under /oauth2 but clients' APIs answering JSON, not pages: the pushed authorization requests and
 * the device authorization endpoint.
 */
const CLIENT_APIS = ['/oauth2/par', '/oauth2/device_authorization'];

/**
 * NUL and the other control characters (docs/errors.md, "Control characters"): refused in every
 * page's query and form (a 400 page in the page's language), in every JSON body and query
 * string of the application and console APIs (400 invalid_body / invalid_query) and in the
 * OAuth endpoints' forms (400 invalid_request); never a 500 from PostgreSQL refusing NUL.
 */
describe('control characters in requests', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
    key = (await createApiKey(t.app, w.applicationId, [...API_SCOPES])).plaintext;
  });

  describe('browser pages', () => {
    it('%00 in the sign-in username is a 400 page, not a 500', async () => {
      const { application } = await oauthSetup(t.app);
      const agent = browser(t.app);
      const clientId = application.clientId;
      const challenge = pkce().challenge;
      const submit = await openLogin(agent, { clientId, challenge, username: 'ali\u0000ce' });
      const res = await submit();
      expectStatus(res, 400);
      expect(res.text).toContain('control character');
      // The form still works with a clean username.
      const again = await openLogin(agent, { clientId, challenge, password: PASSWORD });
      expectStatus(await again(), 303);
    });

    it("%00 in the forgot-password address is a 400 page in the page's language", async () => {
      const agent = browser(t.app);
      const page = await agent.get('/oauth2/forgot-password').set('Accept-Language', 'zh-CN');
      expectStatus(page, 200);
      const res = await agent
        .post('/oauth2/forgot-password')
        .set('Accept-Language', 'zh-CN')
        .type('form')
        .send(
          `csrf_token=${encodeURIComponent(hiddenInput(page.text, 'csrf_token'))}` +
            '&email=owner%00@example.org',
        );
      expectStatus(res, 400);
      expect(res.text).toContain('lang="zh-CN"');
      expect(res.text).toContain('控制字符');
    });

    it.each(CONTROLS)(
      'every page refuses %s in its query and its form with a 400 page',
      async (_name, control) => {
        const pages = listRoutes(t.app).filter(
          (route) => PAGES.test(route.path) && !CLIENT_APIS.includes(route.path),
        );
        expect(pages.length).toBeGreaterThan(20);
        for (const route of pages) {
          const path = concretePath(route.path);
          const query = await t
            .http()
            .get(`${path}?request=${encodeURIComponent(`r${control}`)}`)
            .set('Accept-Language', 'en');
          expect([route.path, query.status, query.type]).toEqual([route.path, 400, 'text/html']);
          if (route.method !== 'POST') continue;
          const form = await t
            .http()
            .post(path)
            .type('form')
            .send({ username: `a${control}`, email: 'a@example.org' });
          expect([route.path, form.status, form.type]).toEqual([route.path, 400, 'text/html']);
          expect(form.text).toContain('control character');
        }
      },
    );
  });

  describe('JSON APIs', () => {
    it('the application API: a body field is 400 invalid_body, a query parameter 400 invalid_query', async () => {
      const patch = await t
        .http()
        .patch(`/api/v1/app/users/${w.member.userId}`)
        .set(...bearer(key))
        .send({ group: 't\u00004' });
      expect([patch.status, patch.body.error]).toEqual([400, 'invalid_body']);
      const list = await t
        .http()
        .get('/api/v1/app/users?keyword=ali%00ce')
        .set(...bearer(key));
      expect([list.status, list.body.error]).toEqual([400, 'invalid_query']);
    });

    it.each(CONTROLS)(
      'the console refuses %s in a body field (400 invalid_body) or a query parameter (400 invalid_query)',
      async (_name, control) => {
        const app = `/api/console/applications/${w.applicationId}`;
        const refusals = [
          w.owner.request('post', '/api/console/applications').send({ name: `New${control}` }),
          w.owner.request('patch', app).send({ description: `one${control}two` }),
          w.owner
            .request('patch', `${app}/users/${w.member.userId}`)
            .send({ group: `t${control}` }),
          w.owner
            .request('put', `${app}/members/${w.member.userId}`)
            .send({ role: `viewer${control}` }),
          // Names count too, and the sign-in route reads its body before any session.
          w.owner.request('post', '/api/console/session').send({ [`login${control}`]: 'x' }),
          t
            .http()
            .post('/api/console/session')
            .send({ login: `owner${control}`, password: 'x' }),
        ];
        for (const res of await Promise.all(refusals)) {
          expect([res.status, res.body.error]).toEqual([400, 'invalid_body']);
        }
        const query = await w.owner.request(
          'get',
          `${app}/users?keyword=${encodeURIComponent(`a${control}`)}`,
        );
        expect([query.status, query.body.error]).toEqual([400, 'invalid_query']);
      },
    );

    it('other text is accepted: accents, CJK, emoji, and U+00A0', async () => {
      const res = await w.owner
        .request('patch', `/api/console/applications/${w.applicationId}`)
        .send({ description: 'Café 中文 🚀\u00a0ok' });
      expect(res.status).toBe(200);
      expect(res.body.description).toBe('Café 中文 🚀\u00a0ok');
    });
  });

  it('the OAuth endpoints answer 400 invalid_request for a control character in a parameter', async () => {
    const { application } = await oauthSetup(t.app);
    for (const body of [
      `grant_type=authorization_code&client_id=${application.clientId}&code=a%00b`,
      `grant_type=authorization_code&client_id=a%00b&code=x`,
      `grant_type=refresh_token&client_id=${application.clientId}&refresh_token=a%0Ab`,
    ]) {
      const res = await t.http().post('/api/oauth2/token').type('form').send(body);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
    }
    for (const path of CLIENT_APIS) {
      const res = await t
        .http()
        .post(path)
        .type('form')
        // state for the pushed request, scope for the device authorization (its one parameter).
        .send(`client_id=${application.clientId}&state=a%00b&scope=a%00b&response_type=code`);
      expect([path, res.status, res.type, res.body.error]).toEqual([
        path,
        400,
        'application/json',
        'invalid_request',
      ]);
    }
  });

  it('no route answers 5xx to a NUL in its path, its query string or its body', async () => {
    const failures: string[] = [];
    for (const route of listRoutes(t.app)) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      // A fresh console session each time: a sign-out route must not end the others' session.
      const owner = await consoleSession(t, w.owner.userId);
      const withNul = route.path.replace(/:(\w+)/g, 'a%00b');
      const sends: [string, () => supertest.Test][] = [
        [`path ${withNul}`, () => owner.request(method, withNul)],
        [
          'query',
          () => owner.request(method, `${concretePath(route.path)}?request=%00&keyword=%00`),
        ],
        [
          'JSON body',
          () =>
            owner
              .request(method, concretePath(route.path))
              .set('Authorization', `Bearer ${key}`)
              .send({ name: 'a\u0000', login: 'a\u0000', url: 'https://a\u0000.example' }),
        ],
        [
          'form body',
          () =>
            owner
              .request(method, concretePath(route.path))
              .type('form')
              .send({ username: 'a\u0000', email: 'a\u0000@example.org', client_id: 'a\u0000' }),
        ],
      ];
      for (const [what, send] of sends) {
        if (what.startsWith('path') && withNul === route.path) continue;
        const res = await send();
        if (res.status >= 500)
          failures.push(`${route.method} ${route.path} (${what}): ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
