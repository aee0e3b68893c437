import { consoleWorld, type ConsoleClient, type ConsoleWorld } from '../../../support/console';
import { listRoutes } from '../../../support/routes';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Who may do what: every route under /api/console for each kind of caller. A role
 * that passes the role check is probed without changing anything where the route would change
 * something: an invalid body (400) or no passkey confirmation (403
 * passkey_confirmation_required), the checks that come right after the role (docs/console.md,
 * "Order of checks"). The successful operations are in the other console-*.e2e-spec.ts files.
 */
type Caller = 'signedOut' | 'stranger' | 'member' | 'viewer' | 'admin' | 'owner';
type Needs =
  /** No session needed: sign-in routes. */
  | 'nothing'
  /** Any session; no application involved (account, own applications list, create). */
  | 'session'
  /** This role or above in the application of the path (or of the body). */
  | 'viewer'
  | 'admin'
  | 'owner';

interface Outcome {
  status: number;
  error?: string;
}

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The Express route pattern, as listRoutes reports it. */
  pattern: string;
  needs: Needs;
  /** What a caller who passes the role check gets. */
  allowed: Outcome;
  body?: (w: ConsoleWorld) => unknown;
}

const CONFIRMATION_MISSING = { status: 403, error: 'passkey_confirmation_required' };
const APP = '/api/console/applications/:applicationId';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

const ROUTES: RouteCase[] = [
  // Session (src/modules/console/session)
  {
    method: 'POST',
    pattern: '/api/console/session',
    needs: 'nothing',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({}),
  },
  { method: 'GET', pattern: '/api/console/session', needs: 'session', allowed: { status: 200 } },
  { method: 'DELETE', pattern: '/api/console/session', needs: 'session', allowed: { status: 204 } },
  // Applications
  {
    method: 'GET',
    pattern: '/api/console/applications',
    needs: 'session',
    allowed: { status: 200 },
  },
  {
    method: 'POST',
    pattern: '/api/console/applications',
    needs: 'session',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ description: 'no name' }),
  },
  { method: 'GET', pattern: APP, needs: 'viewer', allowed: { status: 200 } },
  {
    method: 'PATCH',
    pattern: APP,
    needs: 'admin',
    allowed: { status: 400, error: 'empty_body' },
    body: () => ({}),
  },
  { method: 'DELETE', pattern: APP, needs: 'owner', allowed: CONFIRMATION_MISSING },
  {
    method: 'POST',
    pattern: `${APP}/client-secret`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
  },
  // Users, events, stats
  { method: 'GET', pattern: `${APP}/users`, needs: 'viewer', allowed: { status: 200 } },
  { method: 'GET', pattern: `${APP}/users/:userId`, needs: 'viewer', allowed: { status: 200 } },
  {
    method: 'PATCH',
    pattern: `${APP}/users/:userId`,
    needs: 'admin',
    allowed: { status: 400, error: 'empty_body' },
    body: () => ({}),
  },
  {
    method: 'POST',
    pattern: `${APP}/users/:userId/force-offline`,
    needs: 'admin',
    allowed: { status: 200 },
  },
  { method: 'GET', pattern: `${APP}/events`, needs: 'viewer', allowed: { status: 200 } },
  { method: 'GET', pattern: `${APP}/stats`, needs: 'viewer', allowed: { status: 200 } },
  // Keys
  { method: 'GET', pattern: `${APP}/keys`, needs: 'admin', allowed: { status: 200 } },
  {
    method: 'POST',
    pattern: `${APP}/keys`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
    body: () => ({ name: 'ci', scopes: ['user:read'] }),
  },
  {
    method: 'POST',
    pattern: `${APP}/keys/:keyId/rotate`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
  },
  {
    method: 'POST',
    pattern: `${APP}/keys/:keyId/revoke`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
  },
  {
    method: 'DELETE',
    pattern: `${APP}/keys/:keyId`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
  },
  // Webhooks: the world has no endpoint, so :endpointId is unknown (404) past the body check.
  { method: 'GET', pattern: `${APP}/webhooks`, needs: 'admin', allowed: { status: 200 } },
  {
    method: 'POST',
    pattern: `${APP}/webhooks`,
    needs: 'admin',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ url: 42 }),
  },
  {
    method: 'PATCH',
    pattern: `${APP}/webhooks/:endpointId`,
    needs: 'admin',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ enabled: 'yes' }),
  },
  {
    method: 'PUT',
    pattern: `${APP}/webhooks/:endpointId/url`,
    needs: 'admin',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ url: 42 }),
  },
  {
    method: 'POST',
    pattern: `${APP}/webhooks/:endpointId/rotate-secret`,
    needs: 'admin',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'DELETE',
    pattern: `${APP}/webhooks/:endpointId`,
    needs: 'admin',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'GET',
    pattern: `${APP}/webhooks/:endpointId/deliveries`,
    needs: 'admin',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'POST',
    pattern: `${APP}/webhooks/:endpointId/test`,
    needs: 'admin',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'POST',
    pattern: `${APP}/webhooks/:endpointId/resend`,
    needs: 'admin',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ eventId: 'x' }),
  },
  {
    method: 'POST',
    pattern: `${APP}/webhooks/:endpointId/replay`,
    needs: 'admin',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({ fromEventId: 'x' }),
  },
  // Audit log
  { method: 'GET', pattern: `${APP}/audit-log`, needs: 'admin', allowed: { status: 200 } },
  // Back-channel logouts (src/modules/console/backchannel-logout)
  {
    method: 'GET',
    pattern: `${APP}/backchannel-logouts`,
    needs: 'admin',
    allowed: { status: 200 },
  },
  // Console access (members): :userId is the t3 member, who has no console role.
  { method: 'GET', pattern: `${APP}/members`, needs: 'admin', allowed: { status: 200 } },
  {
    method: 'PUT',
    pattern: `${APP}/members/:userId`,
    needs: 'admin',
    allowed: CONFIRMATION_MISSING,
    body: () => ({ role: 'viewer' }),
  },
  {
    method: 'DELETE',
    pattern: `${APP}/members/:userId`,
    needs: 'admin',
    allowed: { status: 404, error: 'not_found' },
  },
  // Passkey confirmations (src/modules/console/passkeys/confirmations): the role the action needs, on the body's target.
  {
    method: 'POST',
    pattern: '/api/console/confirmations',
    needs: 'admin',
    allowed: { status: 409, error: 'passkey_not_registered' },
    body: (w) => ({ action: 'key.rotate', applicationId: w.applicationId, keyId: w.keyId }),
  },
  {
    method: 'POST',
    pattern: '/api/console/confirmations/:confirmationId',
    needs: 'session',
    allowed: CONFIRMATION_MISSING,
    body: () => ({ response: {} }),
  },
  // Account passkeys and passkey sign-in (src/modules/console/passkeys)
  {
    method: 'GET',
    pattern: '/api/console/account/passkeys',
    needs: 'session',
    allowed: { status: 200 },
  },
  {
    method: 'POST',
    pattern: '/api/console/account/passkeys/options',
    needs: 'session',
    allowed: { status: 200 },
    body: () => ({}),
  },
  {
    method: 'POST',
    pattern: '/api/console/account/passkeys',
    needs: 'session',
    allowed: { status: 400, error: 'invalid_body' },
    body: () => ({}),
  },
  {
    method: 'PATCH',
    pattern: '/api/console/account/passkeys/:id',
    needs: 'session',
    allowed: { status: 404, error: 'not_found' },
    body: () => ({ name: 'Phone' }),
  },
  {
    method: 'DELETE',
    pattern: '/api/console/account/passkeys/:id',
    needs: 'session',
    allowed: { status: 404, error: 'not_found' },
  },
  // Account upstream bindings (src/modules/console/account-upstreams)
  {
    method: 'GET',
    pattern: '/api/console/account/upstreams',
    needs: 'session',
    allowed: { status: 200 },
  },
  {
    method: 'POST',
    pattern: '/api/console/account/upstreams/:providerId/bind',
    needs: 'session',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'DELETE',
    pattern: '/api/console/account/upstreams/:id',
    needs: 'session',
    allowed: { status: 404, error: 'not_found' },
  },
  {
    method: 'POST',
    pattern: '/api/console/session/passkey/options',
    needs: 'nothing',
    allowed: { status: 200 },
    body: () => ({}),
  },
  {
    method: 'POST',
    pattern: '/api/console/session/passkey',
    needs: 'nothing',
    allowed: { status: 401, error: 'invalid_credentials' },
    body: () => ({}),
  },
];

const CALLERS: Caller[] = ['signedOut', 'stranger', 'member', 'viewer', 'admin', 'owner'];
const RANK: Record<Caller, number> = {
  signedOut: 0,
  stranger: 1,
  member: 1,
  viewer: 2,
  admin: 3,
  owner: 4,
};
const NEEDED: Record<'viewer' | 'admin' | 'owner', number> = { viewer: 2, admin: 3, owner: 4 };

/** What `caller` must get from a route that `needs` this. */
function expected(route: RouteCase, caller: Caller): Outcome {
  if (route.needs === 'nothing') return route.allowed;
  if (caller === 'signedOut') return { status: 401, error: 'unauthenticated' };
  if (route.needs === 'session') return route.allowed;
  if (RANK[caller] < NEEDED.viewer) return { status: 404, error: 'not_found' };
  if (RANK[caller] < NEEDED[route.needs]) return { status: 403, error: 'forbidden' };
  return route.allowed;
}

function concrete(pattern: string, w: ConsoleWorld): string {
  return pattern
    .replace(':applicationId', String(w.applicationId))
    .replace(':userId', w.member.userId)
    .replace(':keyId', String(w.keyId))
    .replace(':endpointId', '999')
    .replace(':confirmationId', UNKNOWN_UUID)
    .replace(':providerId', 'not-configured')
    .replace(':id', UNKNOWN_UUID);
}

describe('console roles: every route, every caller', () => {
  let t: TestApp;
  let w: ConsoleWorld;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
  });

  const TABLES = [
    'applications',
    'app_users',
    'api_keys',
    'oauth_sessions',
    'oauth_tokens',
    'audit_log',
    'passkey_credentials',
    'passkey_ceremonies',
    'passkey_confirmations',
    'console_members',
    'webhook_endpoints',
    'webhook_deliveries',
  ];
  /** Every row of the tables a console route writes, as one digest per table. */
  const snapshot = async (): Promise<Record<string, string>> => {
    const digests: Record<string, string> = {};
    for (const table of TABLES) {
      const [row] = await t.dataSource.query<{ digest: string }[]>(
        `SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS digest FROM "${table}" x`,
      );
      digests[table] = row.digest;
    }
    return digests;
  };

  function send(route: RouteCase, caller: Caller) {
    const path = concrete(route.pattern, w);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const client: ConsoleClient | undefined = caller === 'signedOut' ? undefined : w[caller];
    const req = client ? client.request(method, path) : t.http()[method](path);
    return route.body ? req.send(route.body(w) as object) : req;
  }

  it('covers every route the app registers under /api/console', () => {
    const registered = listRoutes(t.app)
      .filter((route) => route.path.startsWith('/api/console'))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    expect(registered).toEqual(ROUTES.map((route) => `${route.method} ${route.pattern}`).sort());
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.pattern}`, route] as const))(
    '%s',
    async (_name, route) => {
      for (const caller of CALLERS) {
        const res = await send(route, caller);
        const want = expected(route, caller);
        const got: Outcome = { status: res.status };
        if (want.error !== undefined) got.error = (res.body as { error?: string }).error;
        expect({ caller, ...got }).toEqual({ caller, ...want });
        expect(res.headers['cache-control']).toBe('no-store');
      }
    },
  );

  describe('CSRF: a state-changing request without the session token changes nothing', () => {
    const changing = ROUTES.filter((route) => route.method !== 'GET' && route.needs !== 'nothing');

    it.each(changing.map((route) => [`${route.method} ${route.pattern}`, route] as const))(
      '%s',
      async (_name, route) => {
        const before = await snapshot();
        const path = concrete(route.pattern, w);
        const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
        const ownerCookieOnly = () => t.http()[method](path).set('Cookie', w.owner.cookie);
        const attempts = [
          ownerCookieOnly(),
          ownerCookieOnly().set('X-CSRF-Token', 'forged'),
          // The token of another session (the admin's) is not this session's.
          ownerCookieOnly().set('X-CSRF-Token', w.admin.csrfToken),
          // The right token from another site.
          w.owner.request(method, path).set('Origin', 'https://evil.example'),
        ];
        for (const attempt of attempts) {
          const res = await (route.body ? attempt.send(route.body(w) as object) : attempt);
          expect([res.status, (res.body as { error: string }).error]).toEqual([403, 'csrf_failed']);
        }
        expect(await snapshot()).toEqual(before);
      },
    );

    it('refuses other body types than JSON with 415 on every state-changing route', async () => {
      for (const route of changing) {
        const path = concrete(route.pattern, w);
        const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
        const res = await w.owner.request(method, path).type('form').send({ name: 'x' });
        expect([route.pattern, res.status]).toEqual([route.pattern, 415]);
      }
    });
  });

  it('checks the role before the body and the path ids, on every route of an application', async () => {
    // A body and path ids each route refuses (400) once past the role: the role answers first.
    const perApplication = ROUTES.filter((route) => route.pattern.startsWith(APP));
    const before = await snapshot();
    const attempts: [ConsoleClient, string, Outcome][] = [
      [w.owner, String(w.otherApplicationId), { status: 404, error: 'not_found' }],
      [w.owner, 'abc', { status: 404, error: 'not_found' }],
      [w.member, String(w.applicationId), { status: 404, error: 'not_found' }],
    ];
    for (const route of perApplication) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const cases = [...attempts];
      if (route.needs !== 'viewer') {
        cases.push([w.viewer, String(w.applicationId), { status: 403, error: 'forbidden' }]);
      }
      for (const [client, id, want] of cases) {
        const path = route.pattern
          .replace(':applicationId', id)
          .replace(/:(userId|keyId)/, 'not-an-id');
        const req = client.request(method, path);
        const res = await (method === 'get' ? req.query({ limit: 'x' }) : req.send([]));
        const got = { status: res.status, error: (res.body as { error?: string }).error };
        expect([route.method, path, got]).toEqual([route.method, path, want]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('states in the OpenAPI document the role each route of an application enforces', async () => {
    type Paths = Record<string, Record<string, { 'x-console-role'?: string }>>;
    const { paths } = (await t.http().get('/api/docs-json').expect(200)).body as { paths: Paths };
    for (const route of ROUTES.filter((r) => r.pattern.startsWith(APP))) {
      const operation = paths[route.pattern.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
      const name = `${route.method} ${route.pattern}`;
      expect([name, operation['x-console-role']]).toEqual([name, route.needs]);
    }
  });

  it("answers 404 for another application's id, an unknown one and one that cannot be an id", async () => {
    for (const id of [w.otherApplicationId, 999, 0, -1, 'abc', '1e3', '99999999999']) {
      for (const path of [`${id}`, `${id}/users`, `${id}/keys`, `${id}/audit-log`]) {
        const res = await w.owner.request('get', `/api/console/applications/${path}`);
        expect([path, res.status, (res.body as { error: string }).error]).toEqual([
          path,
          404,
          'not_found',
        ]);
      }
    }
  });

  it('lists only my applications, each with my role', async () => {
    const list = async (client: ConsoleClient) =>
      (
        (await client.request('get', '/api/console/applications').expect(200)).body as {
          id: number;
          role: string;
        }[]
      ).map(({ id, role }) => ({ id, role }));
    expect(await list(w.owner)).toEqual([{ id: w.applicationId, role: 'owner' }]);
    expect(await list(w.admin)).toEqual([{ id: w.applicationId, role: 'admin' }]);
    expect(await list(w.viewer)).toEqual([{ id: w.applicationId, role: 'viewer' }]);
    expect(await list(w.member)).toEqual([]);
    expect(await list(w.stranger)).toEqual([{ id: w.otherApplicationId, role: 'owner' }]);
  });

  it('keeps the role whatever the relation says: a disabled relation, a group below viewer', async () => {
    await t.dataSource.query(
      `UPDATE app_users SET enabled = false WHERE application_id = $1 AND user_id = $2`,
      [w.applicationId, w.admin.userId],
    );
    await t.dataSource.query(
      `UPDATE app_users SET "group" = 't5' WHERE application_id = $1 AND user_id = $2`,
      [w.applicationId, w.viewer.userId],
    );
    const roleOf = async (client: ConsoleClient) =>
      (
        (await client.request('get', `/api/console/applications/${w.applicationId}`).expect(200))
          .body as { role: string }
      ).role;
    expect(await roleOf(w.admin)).toBe('admin');
    expect(await roleOf(w.viewer)).toBe('viewer');
  });

  it('loses the role only with its console_members row', async () => {
    await t.dataSource.query(`DELETE FROM console_members WHERE application_id = $1`, [
      w.applicationId,
    ]);
    for (const client of [w.admin, w.viewer]) {
      const res = await client.request('get', `/api/console/applications/${w.applicationId}`);
      expect(res.status).toBe(404);
    }
  });
});
