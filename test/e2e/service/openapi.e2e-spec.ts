import { buildOpenApiDocument } from '../../../src/openapi-generate';
import { openApiJson } from '../../../src/openapi/openapi-document';
import { listRoutes, RouteInfo } from '../../support/routes';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * Routes deliberately left out of the OpenAPI document (docs/openapi.md): the document's own
 * routes; the console's HTML pages and static files under /console (the JSON API they call lives
 * under /api/console and is documented); and the account page's script under /account/assets
 * (its pages and forms are documented).
 */
const HIDDEN: RegExp[] = [
  /^\/api\/docs(-json|-yaml)?(\/|$)/,
  /^\/console(\/|$)/,
  /^\/account\/assets\//,
];

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };
interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

/** `/users/:userId` → `/users/{userId}`, as OpenAPI writes path parameters. */
const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, '{$1}');

const operations = (doc: OpenApiDoc): RouteInfo[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => key !== 'parameters')
      .map((method) => ({ method: method.toUpperCase(), path })),
  );

const key = (route: RouteInfo): string => `${route.method} ${route.path}`;

describe('OpenAPI document', () => {
  let t: TestApp;
  let served: OpenApiDoc;
  beforeAll(async () => {
    t = await createTestApp();
    served = (await t.http().get('/api/docs-json').expect(200)).body as OpenApiDoc;
  });
  afterAll(() => t.close());

  it('serves what the generator of docs/openapi.json builds without a server or database', async () => {
    const built = await buildOpenApiDocument();
    expect(served).toEqual(JSON.parse(openApiJson(built)));
    // Deterministic: a second build gives the same text.
    expect(openApiJson(await buildOpenApiDocument())).toBe(openApiJson(built));
  });

  it('lists every route the app registers, with its method, and no route it does not', () => {
    const registered = listRoutes(t.app)
      .filter((route) => !HIDDEN.some((hidden) => hidden.test(route.path)))
      .map((route) => key({ method: route.method, path: openApiPath(route.path) }));
    const documented = operations(served).map(key);
    // HEAD routes come with GET in Express; OpenAPI lists the GET.
    const missing = [...new Set(registered)].filter((route) => !documented.includes(route));
    expect(missing).toEqual([]);
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('states the credentials of each route family', () => {
    const security = (path: string, method: string): unknown => served.paths[path][method].security;
    for (const route of operations(served)) {
      const method = route.method.toLowerCase();
      if (route.path.startsWith('/api/v1/app/')) {
        expect([route.path, security(route.path, method)]).toEqual([route.path, [{ apiKey: [] }]]);
      }
      // Console: the session (read from ConsoleSessionGuard), with the CSRF header on every
      // state-changing route; only the sign-in routes (POST /api/console/session…) need neither.
      if (route.path.startsWith('/api/console/')) {
        const signIn = method === 'post' && route.path.startsWith('/api/console/session');
        const expected = signIn
          ? undefined
          : [method === 'get' ? { session: [] } : { session: [], csrf: [] }];
        expect([route.method, route.path, security(route.path, method)]).toEqual([
          route.method,
          route.path,
          expected,
        ]);
        // The guard's refusals: 401 without a session, 403 csrf_failed and 415 on changes.
        const statuses = Object.keys(served.paths[route.path][method].responses);
        const guard = [...(signIn ? [] : ['401']), ...(method === 'get' ? [] : ['403', '415'])];
        expect([route.method, route.path, guard.filter((s) => !statuses.includes(s))]).toEqual([
          route.method,
          route.path,
          [],
        ]);
      }
    }
    expect(security('/api/console/session', 'post')).toBeUndefined();
    expect(security('/api/console/session', 'get')).toEqual([{ session: [] }]);
    expect(security('/api/console/session', 'delete')).toEqual([{ session: [], csrf: [] }]);
    expect(security('/api/oauth2/token', 'post')).toEqual([{ clientBasic: [] }, {}]);
    expect(security('/api/oauth2/revoke', 'post')).toEqual([{ clientBasic: [] }, {}]);
    expect(security('/api/oauth2/introspect', 'post')).toEqual([{ clientBasic: [] }, {}]);
    expect(security('/api/oauth2/userinfo', 'get')).toEqual([{ accessToken: [] }]);
    expect(security('/api/oauth2/user/emails', 'get')).toEqual([{ accessToken: [] }]);
    // The JWK Set is public (RFC 7517; OIDC Discovery 1.0 jwks_uri).
    expect(security('/api/oidc/jwks', 'get')).toBeUndefined();
  });
});
