import { gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { API_SCOPES } from '../../../src/modules/keys/scopes';
import { createApiKey, createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

/** The error format each route family answers in (docs/errors.md, docs/oauth.md). */
type Format = 'app' | 'oauth' | 'page';
/** An exact status, or for the pages whose flow another change owns: any answer but a 5xx. */
type Expected = number | 'not 5xx';

interface Endpoint {
  method: 'get' | 'post' | 'patch';
  path: string;
  format: Format;
  /** Answer to a request whose body is empty or of a type the route ignores. */
  ignored: Expected;
  /** The body's media type this family parses. */
  accepts: 'json' | 'form';
}

const UNKNOWN_USER = '/api/v1/app/users/999999';
const UPSTREAM_BIND = '/api/auth/upstream/unknown/bind';
// One line per body-accepting endpoint (plus GETs, which must not choke on a body either).
const ENDPOINTS: Endpoint[] = [
  { method: 'patch', path: UNKNOWN_USER, format: 'app', ignored: 400, accepts: 'json' },
  { method: 'post', path: `${UNKNOWN_USER}/revoke`, format: 'app', ignored: 404, accepts: 'json' },
  { method: 'get', path: '/api/v1/app/me', format: 'app', ignored: 200, accepts: 'json' },
  { method: 'post', path: '/api/oauth2/token', format: 'oauth', ignored: 400, accepts: 'form' },
  { method: 'get', path: '/api/oauth2/userinfo', format: 'oauth', ignored: 401, accepts: 'form' },
  { method: 'post', path: '/oauth2/login', format: 'page', ignored: 'not 5xx', accepts: 'form' },
  { method: 'post', path: '/oauth2/consent', format: 'page', ignored: 'not 5xx', accepts: 'form' },
  { method: 'post', path: '/oauth2/logout', format: 'page', ignored: 'not 5xx', accepts: 'form' },
  // Browser pages outside /oauth2: the upstream bind form, the end-session alias, the console.
  { method: 'post', path: UPSTREAM_BIND, format: 'page', ignored: 'not 5xx', accepts: 'form' },
  { method: 'get', path: '/api/oidc/logout', format: 'page', ignored: 'not 5xx', accepts: 'form' },
  { method: 'get', path: '/console', format: 'page', ignored: 'not 5xx', accepts: 'form' },
];

interface BodyCase {
  name: string;
  contentType: (endpoint: Endpoint) => string;
  body: (endpoint: Endpoint) => string | Buffer;
  headers?: Record<string, string>;
  /** Status per family; undefined: the route's own answer to an ignored body. */
  expected: Record<Format, Expected | undefined>;
  /** The application API's code for this case (when it refuses the body). */
  appCode?: string;
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const typeOf = (e: Endpoint): string => (e.accepts === 'json' ? JSON_TYPE : FORM_TYPE);
/** A body of the endpoint's own media type, at least `bytes` long. */
const hugeBody = (bytes: number) => (e: Endpoint) =>
  e.accepts === 'json' ? JSON.stringify({ pad: 'x'.repeat(bytes) }) : `pad=${'x'.repeat(bytes)}`;

const CASES: BodyCase[] = [
  {
    name: 'an empty body',
    contentType: typeOf,
    body: () => '',
    expected: { app: undefined, oauth: undefined, page: undefined },
  },
  {
    name: 'a 200 kB body',
    contentType: typeOf,
    body: hugeBody(200 * 1024),
    expected: { app: 413, oauth: 413, page: 413 },
    appCode: 'payload_too_large',
  },
  {
    name: 'a 2 MB body',
    contentType: typeOf,
    body: hugeBody(2 * 1024 * 1024),
    expected: { app: 413, oauth: 413, page: 413 },
    appCode: 'payload_too_large',
  },
  {
    name: 'malformed JSON',
    contentType: () => JSON_TYPE,
    body: () => '{"group": ',
    expected: { app: 400, oauth: 400, page: 415 },
    appCode: 'invalid_body',
  },
  {
    name: 'a wrong content type',
    contentType: () => 'text/plain',
    body: () => 'group=admin',
    expected: { app: undefined, oauth: 400, page: 415 },
  },
  {
    name: 'invalid UTF-8 bytes',
    contentType: typeOf,
    body: (e) => Buffer.from(e.accepts === 'json' ? '{"group":"\xff"}' : 'a=\xff', 'latin1'),
    expected: { app: 400, oauth: 400, page: 400 },
    appCode: 'invalid_body',
  },
  {
    name: 'invalid percent-encoded UTF-8 in a form',
    contentType: () => FORM_TYPE,
    body: () => 'grant_type=%FF',
    expected: { app: undefined, oauth: 400, page: 400 },
  },
  {
    name: 'an unsupported charset',
    contentType: (e) => `${typeOf(e)}; charset=shift_jis`,
    body: (e) => (e.accepts === 'json' ? '{}' : 'a=b'),
    expected: { app: 415, oauth: 400, page: 415 },
    appCode: 'unsupported_media_type',
  },
  {
    name: 'an ISO-8859-1 charset (which body-parser alone would read)',
    contentType: (e) => `${typeOf(e)}; charset=iso-8859-1`,
    body: (e) => (e.accepts === 'json' ? '{}' : 'a=b'),
    expected: { app: 415, oauth: 400, page: 415 },
    appCode: 'unsupported_media_type',
  },
  {
    name: 'an unsupported Content-Encoding',
    contentType: typeOf,
    body: (e) => gzipSync(e.accepts === 'json' ? '{}' : 'a=b'),
    headers: { 'Content-Encoding': 'gzip' },
    expected: { app: 415, oauth: 400, page: 415 },
    appCode: 'unsupported_media_type',
  },
];

function expectFormat(res: Response, format: Format, appCode?: string): void {
  if (format === 'page') {
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    return;
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (res.status < 400) return;
  if (format === 'oauth') {
    expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
    expect(res.headers['cache-control']).toBe('no-store');
    if (res.status === 400 || res.status === 413) expect(res.body.error).toBe('invalid_request');
    return;
  }
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
  if (appCode) expect(res.body.error).toBe(appCode);
}

function expectStatus(status: number, expected: Expected): void {
  if (expected === 'not 5xx') {
    expect(status).toBeLessThan(500);
  } else {
    expect(status).toBe(expected);
  }
}

describe('request bodies: limits and malformed input on every endpoint (never a 500)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.truncate();
    const { application } = await createApplication(t.app);
    key = (await createApiKey(t.app, application.id, [...API_SCOPES])).plaintext;
  });
  afterAll(() => t.close());

  const table = ENDPOINTS.flatMap((endpoint) =>
    CASES.map((c) => ({
      label: `${endpoint.method.toUpperCase()} ${endpoint.path}, ${c.name}`,
      endpoint,
      c,
    })),
  );
  it.each(table)('$label', async ({ endpoint, c }) => {
    let req = t.http()[endpoint.method](endpoint.path).set('Content-Type', c.contentType(endpoint));
    if (endpoint.format === 'app') req = req.set('Authorization', `Bearer ${key}`);
    for (const [name, value] of Object.entries(c.headers ?? {})) req = req.set(name, value);
    // Bytes as given: superagent would otherwise serialize a Buffer as JSON or as a form.
    const res = await req.serialize((data: unknown) => data as string).send(c.body(endpoint));
    const explicit = c.expected[endpoint.format];
    expectStatus(res.status, explicit ?? endpoint.ignored);
    expectFormat(res, endpoint.format, explicit === undefined ? undefined : c.appCode);
  });
});
