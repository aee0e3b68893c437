import type { Response } from 'supertest';
import { TokenBatches } from '../../../../src/modules/oauth/token/token-batches';
import {
  authorizeInteractively,
  basic,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { obtainTokens } from '../../../support/oauth-tokens';
import { createTestApp, TestApp } from '../../../support/test-app';

type Field = [name: string, value: string];
type Endpoint = 'token' | 'revoke' | 'introspect';

/**
 * RFC 6749 sections 3.1 and 3.2 at the three form endpoints (docs/oauth.md, "Request
 * parameters"): the form is read once, an empty value is an omitted one, and a parameter the
 * endpoint reads that is sent twice (or structured, `a[b]=`) is invalid_request with the same
 * wording everywhere, at the step that reads it: grant_type and the client's parameters before
 * client authentication, a grant's or the presented token's parameters after it. Parameters the
 * endpoint or the grant does not read are ignored, repeated or not.
 */
describe('OAuth form parameters: POST /api/oauth2/token, /revoke, /introspect', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** A form body as sent, so that a name can appear twice. */
  const post = (endpoint: Endpoint, fields: Field[], authorization?: string) => {
    const body = fields.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    const req = t.http().post(`/api/oauth2/${endpoint}`).type('form');
    if (authorization) void req.set('Authorization', authorization);
    return req.send(body);
  };
  const repeat = (fields: Field[], name: string): Field[] => [
    ...fields,
    fields.find(([k]) => k === name) ?? [name, 'x'],
  ];
  const answer = (res: Response) => [res.status, res.body.error, res.body.error_description];
  const repeated = (name: string) => [
    400,
    'invalid_request',
    `The ${name} parameter is repeated or malformed`,
  ];
  const CLIENT_FAILED = [401, 'invalid_client', 'Client authentication failed'];

  async function codeRequest(clientId: string): Promise<Field[]> {
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), { clientId, challenge });
    return [
      ['grant_type', 'authorization_code'],
      ['code', code],
      ['redirect_uri', REDIRECT_URI],
      ['code_verifier', verifier],
    ];
  }

  describe('the token endpoint', () => {
    it.each(['none', 'secret'] as const)(
      'refuses a repeated client parameter before authenticating the %s client, and grant_type first of all',
      async (authMethod) => {
        const { application, clientSecret } = await oauthSetup(t.app, { authMethod });
        const form = await codeRequest(application.clientId);
        const client: Field[] = [
          ['client_id', application.clientId],
          ['client_secret', 'wrong'],
        ];
        for (const name of ['client_id', 'client_secret'])
          expect(answer(await post('token', repeat([...form, ...client], name)))).toEqual(
            repeated(name),
          );
        const twiceId: Field[] = [
          ['client_id', 'a'],
          ['client_id', 'a'],
        ];
        expect(answer(await post('token', [...form.slice(1), ...twiceId]))).toEqual([
          400,
          'invalid_request',
          'grant_type is required',
        ]);
        expect(answer(await post('token', repeat(form, 'grant_type')))).toEqual(
          repeated('grant_type'),
        );
        // None of them spent the code.
        const good = clientSecret
          ? await post('token', form, basic(application.clientId, clientSecret))
          : await post('token', [...form, ['client_id', application.clientId]]);
        expect(good.status).toBe(200);
      },
    );

    it.each(['none', 'secret'] as const)(
      'refuses a repeated parameter of the code exchange after authenticating the %s client, spending nothing',
      async (authMethod) => {
        const { application, clientSecret } = await oauthSetup(t.app, { authMethod });
        const form = await codeRequest(application.clientId);
        const good = clientSecret ? basic(application.clientId, clientSecret) : undefined;
        const credentials: Field[] = clientSecret ? [] : [['client_id', application.clientId]];
        const wrong = clientSecret ? basic(application.clientId, 'wrong') : undefined;
        const wrongId: Field[] = clientSecret ? [] : [['client_id', 'no-such-client']];
        for (const name of ['code', 'redirect_uri', 'code_verifier']) {
          const twice = repeat(form, name);
          expect(answer(await post('token', [...twice, ...credentials], good))).toEqual(
            repeated(name),
          );
          expect(answer(await post('token', [...twice, ...wrongId], wrong))).toEqual(CLIENT_FAILED);
        }
        // Parameters of the other grant, and unknown ones, are ignored even when repeated.
        const ignored: Field[] = [
          ['scope', 'read'],
          ['scope', 'email'],
          ['refresh_token', 'a'],
          ['refresh_token', 'b'],
          ['state', 's'],
          ['state', 't'],
        ];
        const res = await post('token', [...form, ...ignored, ...credentials], good);
        expect([res.status, res.body.scope]).toEqual([200, 'read']);
      },
    );

    it.each(['none', 'secret'] as const)(
      'refuses a repeated parameter of a refresh after authenticating the %s client, rotating nothing',
      async (authMethod) => {
        const { application, clientSecret } = await oauthSetup(t.app, { authMethod });
        const tokens = await obtainTokens(t.app, { clientId: application.clientId, clientSecret });
        const good = clientSecret ? basic(application.clientId, clientSecret) : undefined;
        const credentials: Field[] = clientSecret ? [] : [['client_id', application.clientId]];
        const form: Field[] = [
          ['grant_type', 'refresh_token'],
          ['refresh_token', tokens.refresh_token],
          ['scope', 'read'],
          ...credentials,
        ];
        for (const name of ['refresh_token', 'scope'])
          expect(answer(await post('token', repeat(form, name), good))).toEqual(repeated(name));
        const rotated = 'SELECT count(*)::int AS n FROM oauth_tokens WHERE rotated_at IS NOT NULL';
        expect(await t.dataSource.query(rotated)).toEqual([{ n: 0 }]);
        const ignored: Field[] = [
          ['code', 'a'],
          ['code', 'b'],
          ['code_verifier', 'v'],
          ['code_verifier', 'w'],
        ];
        expect((await post('token', [...form, ...ignored], good)).status).toBe(200);
      },
    );

    it('counts empty values as omitted: an empty client_secret leaves a public client on its one-statement path', async () => {
      const { application } = await oauthSetup(t.app, { authMethod: 'none' });
      const form = await codeRequest(application.clientId);
      const client: Field[] = [['client_id', application.clientId]];
      const noVerifier = form.map(([k, v]): Field => [k, k === 'code_verifier' ? '' : v]);
      expect(answer(await post('token', [...noVerifier, ...client]))).toEqual([
        400,
        'invalid_request',
        'Public clients must send code_verifier',
      ]);
      // The exchange runs as a public client's one statement, not through client authentication.
      const items = () => {
        const stats = t.app.get(TokenBatches).stats();
        return [stats.exchange_public.items, stats.exchange_authenticated.items];
      };
      const [publicBefore, authenticatedBefore] = items();
      const second = await codeRequest(application.clientId);
      const res = await post('token', [...second, ...client, ['client_secret', ''], ['scope', '']]);
      expect(res.status).toBe(200);
      expect(items()).toEqual([publicBefore + 1, authenticatedBefore]);
    });
  });

  describe.each(['revoke', 'introspect'] as const)('POST /api/oauth2/%s', (endpoint) => {
    it('refuses a repeated client parameter before client authentication, a repeated token parameter after it', async () => {
      const { application, clientSecret } = await oauthSetup(t.app, { authMethod: 'secret' });
      const client = { clientId: application.clientId, clientSecret };
      const tokens = await obtainTokens(t.app, client);
      const form: Field[] = [
        ['token', tokens.access_token],
        ['token_type_hint', 'access_token'],
      ];
      const postFields: Field[] = [
        ['client_id', application.clientId],
        ['client_secret', clientSecret!],
      ];
      const wrong: Field[] = [
        ['client_id', application.clientId],
        ['client_secret', 'wrong'],
      ];
      for (const name of ['client_id', 'client_secret'])
        expect(answer(await post(endpoint, repeat([...form, ...wrong], name)))).toEqual(
          repeated(name),
        );
      for (const name of ['token', 'token_type_hint']) {
        expect(answer(await post(endpoint, repeat([...form, ...postFields], name)))).toEqual(
          repeated(name),
        );
        const basicAuth = basic(application.clientId, clientSecret!);
        expect(answer(await post(endpoint, repeat(form, name), basicAuth))).toEqual(repeated(name));
        expect(answer(await post(endpoint, repeat([...form, ...wrong], name)))).toEqual(
          CLIENT_FAILED,
        );
      }
      // Parameters of the token endpoint mean nothing here, repeated or not; an empty hint is none.
      const ignored: Field[] = [
        ['grant_type', 'a'],
        ['grant_type', 'b'],
        ['scope', 'read'],
        ['scope', 'read'],
        ['token_type_hint', ''],
      ];
      const res = await post(endpoint, [...form.slice(0, 1), ...ignored, ...postFields]);
      expect(res.status).toBe(200);
      if (endpoint === 'introspect') expect(res.body.active).toBe(true);
    });
  });

  it.each(['token', 'revoke', 'introspect'] as const)(
    'answers invalid_client at %s for a client_id longer than 64 characters, as for an unknown one',
    async (endpoint) => {
      const form: Field[] =
        endpoint === 'token'
          ? [
              ['grant_type', 'refresh_token'],
              ['refresh_token', 'r'],
            ]
          : [['token', 't']];
      for (const clientId of ['c'.repeat(64), 'c'.repeat(65)]) {
        expect(answer(await post(endpoint, [...form, ['client_id', clientId]]))).toEqual(
          CLIENT_FAILED,
        );
        const header = basic(clientId, 'secret');
        expect(answer(await post(endpoint, form, header))).toEqual(CLIENT_FAILED);
      }
    },
  );
});
