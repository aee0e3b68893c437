import { sha256Hex } from '../../../src/common/crypto/hash';
import { ApiKeysService } from '../../../src/modules/keys/api-keys.service';
import { lookUpKeys } from '../../../src/modules/keys/key-lookup';
import { ScopeDeclarationCheck } from '../../../src/modules/keys/scope-declarations';
import { createApiKey, createApplication } from '../../factories';
import { concretePath, listRoutes } from '../../support/routes';
import { createTestApp, TestApp } from '../../support/test-app';

const sortByRoute = <T extends { route: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => a.route.localeCompare(b.route));

// docs/contract/api-keys.md#authentication and docs/contract/README.md#errors for the application API.
describe('application API authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const invalidKeyBody = { error: 'invalid_api_key', message: 'The API key is invalid' };

  async function activeKey(scopes: Parameters<typeof createApiKey>[2] = []) {
    const { application } = await createApplication(t.app);
    return (await createApiKey(t.app, application.id, scopes)).plaintext;
  }

  it('answers 401 missing_api_key without an Authorization header', async () => {
    const res = await t.http().get('/api/v1/app/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: 'missing_api_key',
      message: 'The Authorization header with an API key is missing',
    });
  });

  it('treats an empty Authorization header as missing', async () => {
    const res = await t.http().get('/api/v1/app/me').set('Authorization', '');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('missing_api_key');
  });

  it.each([
    ['a malformed key', 'Bearer svc_live_short'],
    ['the wrong prefix', `Bearer svc_test_${'a'.repeat(32)}`],
    ['an unknown well-formed key', `Bearer svc_live_${'A'.repeat(32)}`],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a bare key without Bearer', `svc_live_${'A'.repeat(32)}`],
  ])('answers 401 invalid_api_key for %s with one identical body', async (_, header) => {
    const res = await t.http().get('/api/v1/app/me').set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidKeyBody);
  });

  // Key lookups that arrive together go as one statement (api-keys.service.ts).
  it('reads several keys in one statement as one by one, in order, a repeated key answered each time on its own', async () => {
    const { application } = await createApplication(t.app);
    const one = await createApiKey(t.app, application.id, [], 'one');
    const two = await createApiKey(t.app, application.id, [], 'two');
    await t.app.get(ApiKeysService).revoke(two.apiKey.id);
    const unknown = `svc_live_${'A'.repeat(32)}`;
    const found = await lookUpKeys(
      t.dataSource,
      [one.plaintext, unknown, two.plaintext, one.plaintext].map(sha256Hex),
    );
    expect(found.map((f) => f?.apiKey.name ?? null)).toEqual(['one', null, 'two', 'one']);
    expect(found[2]?.apiKey.status).toBe('revoked');
    expect(found[0]?.application).toMatchObject({ id: application.id, enabled: true });
    expect(found[3]).toEqual(found[0]);
    expect(found[3]?.apiKey).not.toBe(found[0]?.apiKey);
  });

  it('gives each of many concurrent requests its own answer', async () => {
    const { application } = await createApplication(t.app);
    const active = await createApiKey(t.app, application.id, [], 'active');
    const revoked = await createApiKey(t.app, application.id, [], 'revoked');
    await t.app.get(ApiKeysService).revoke(revoked.apiKey.id);
    const cases = [
      { key: active.plaintext, status: 200 },
      { key: revoked.plaintext, status: 401 },
      { key: `svc_live_${'B'.repeat(32)}`, status: 401 },
    ];
    const sent = Array.from({ length: 30 }, (_, i) => cases[i % cases.length]);
    const responses = await Promise.all(
      sent.map((c) => t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${c.key}`)),
    );
    responses.forEach((res, i) => {
      expect(res.status).toBe(sent[i].status);
      if (res.status === 200) expect(res.body.apiKey.name).toBe('active');
      else expect(res.body).toEqual(invalidKeyBody);
    });
  });

  it('never accepts the key in the query string', async () => {
    const key = await activeKey();
    const res = await t.http().get(`/api/v1/app/me?api_key=${key}&access_token=${key}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('missing_api_key');
  });

  it('accepts the Bearer scheme case-insensitively (RFC 7235)', async () => {
    const key = await activeKey();
    const res = await t.http().get('/api/v1/app/me').set('Authorization', `bearer ${key}`);
    expect(res.status).toBe(200);
  });

  it('answers 403 insufficient_scope with required_any_of and granted_scopes', async () => {
    const key = await activeKey(['stats:read', 'group:write']);
    const res = await t.http().get('/api/v1/app/users').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'insufficient_scope',
      message: expect.any(String),
      required_any_of: ['user:read'],
      granted_scopes: ['stats:read', 'group:write'],
    });
  });

  it('reports an empty granted_scopes for a key without scopes', async () => {
    const key = await activeKey([]);
    const res = await t.http().get('/api/v1/app/stats').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(403);
    expect(res.body.required_any_of).toEqual(['stats:read']);
    expect(res.body.granted_scopes).toEqual([]);
  });

  it('lets a key without scopes read /me and /groups', async () => {
    const key = await activeKey([]);
    for (const path of ['/api/v1/app/me', '/api/v1/app/groups']) {
      const res = await t.http().get(path).set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
    }
  });

  // docs/contract/api-keys.md#scopes and docs/api-keys.md: every route states its scopes (or explicitly none).
  it('declares the scopes of exactly the eight routes of section 4.1 and denies each without a key', async () => {
    const declared = t.app
      .get(ScopeDeclarationCheck)
      .routes()
      .filter((route) => route.path.startsWith('/api/v1/app'))
      .map((route) => ({ route: `${route.method} ${route.path}`, scopes: route.scopes }));
    const anyOf = (...scopes: string[]) => ({ kind: 'any-of', scopes });
    const none = { kind: 'none' };
    expect(sortByRoute(declared)).toEqual(
      sortByRoute([
        { route: 'GET /api/v1/app/me', scopes: none },
        { route: 'GET /api/v1/app/users', scopes: anyOf('user:read') },
        { route: 'GET /api/v1/app/users/:userId', scopes: anyOf('user:read') },
        {
          route: 'PATCH /api/v1/app/users/:userId',
          scopes: { kind: 'by-request', scopes: ['user:write', 'group:write'] },
        },
        { route: 'POST /api/v1/app/users/:userId/revoke', scopes: anyOf('relation:revoke') },
        { route: 'GET /api/v1/app/stats', scopes: anyOf('stats:read') },
        { route: 'GET /api/v1/app/events', scopes: anyOf('user:read') },
        { route: 'GET /api/v1/app/groups', scopes: none },
      ]),
    );
    // Express registered exactly the declared routes, and each is denied without a key.
    const routes = listRoutes(t.app).filter((route) => route.path.startsWith('/api/v1/app'));
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      declared.map((d) => d.route).sort(),
    );
    for (const route of routes) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
      const agent = t.http();
      const res = await agent[method](concretePath(route.path)).send(
        route.method === 'GET' ? undefined : {},
      );
      expect({
        route: `${route.method} ${route.path}`,
        status: res.status,
        error: res.body.error,
      }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
        error: 'missing_api_key',
      });
    }
  });

  it('answers an unknown route with 404 not_found in the section 7 format', async () => {
    const res = await t.http().get('/api/v1/app/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No such route' });
  });
});
