import { ISSUER } from '../../../support/oauth';
import { assertionFields, unsignedAssertion } from '../../../support/private-key-jwt';
import { createTestApp, type TestApp } from '../../../support/test-app';

/** Every endpoint that authenticates a client (docs/oauth.md, "Client authentication"). */
const ENDPOINTS = [
  '/api/oauth2/token',
  '/api/oidc/token',
  '/api/oauth2/introspect',
  '/api/oauth2/revoke',
  '/oauth2/par',
  '/oauth2/device_authorization',
];

const basic = (userPass: string): string => `Basic ${Buffer.from(userPass).toString('base64')}`;

// A client id or secret holding a control character names no client: PostgreSQL refuses a NUL
// in a text value, so such a value must be turned away before any lookup, as 401 invalid_client,
// whichever way the client presents it (docs/security.md, "Client authentication").
describe('client authentication: control characters in the client id or secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cases = ENDPOINTS.flatMap((path) => [
    {
      path,
      how: 'a percent-encoded NUL in the Basic client id',
      header: basic('a%00:b'),
      form: {},
    },
    { path, how: 'a raw NUL in the Basic client id', header: basic('a\u0000:b'), form: {} },
    { path, how: 'a percent-encoded NUL in the Basic secret', header: basic('a:b%00'), form: {} },
    { path, how: 'a line break in the Basic client id', header: basic('a%0d%0a:b'), form: {} },
    {
      path,
      how: "a NUL in a client assertion's sub and iss",
      header: undefined,
      form: assertionFields(unsignedAssertion('a\u0000', { now: new Date(), aud: ISSUER })),
    },
  ]);

  it.each(cases)('$path, $how: 401 invalid_client, not a 500', async ({ path, header, form }) => {
    let req = t.http().post(path).type('form');
    if (header) req = req.set('Authorization', header);
    const res = await req.send({ grant_type: 'client_credentials', token: 'x', ...form });
    expect([res.status, res.body]).toEqual([
      401,
      expect.objectContaining({ error: 'invalid_client' }),
    ]);
  });
});
