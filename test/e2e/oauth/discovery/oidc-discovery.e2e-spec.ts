import { ISSUER } from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

// OpenID Connect Discovery 1.0 section 4 and RFC 8414 section 3: one document at both addresses.
describe('Discovery (OIDC Discovery 1.0, RFC 8414)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the OpenID Provider Metadata', async () => {
    const res = await t.http().get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toEqual({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/api/oauth2/token`,
      userinfo_endpoint: `${ISSUER}/api/oauth2/userinfo`,
      jwks_uri: `${ISSUER}/api/oidc/jwks`,
      scopes_supported: ['openid', 'read', 'profile', 'email'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      token_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
        'none',
      ],
      // private_key_jwt assertions: asymmetric algorithms only (never none or HS*).
      token_endpoint_auth_signing_alg_values_supported: [
        'RS256',
        'PS256',
        'ES256',
        'EdDSA',
        'Ed25519',
      ],
      code_challenge_methods_supported: ['S256'],
      claims_supported: [
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'at_hash',
        'acr',
        'amr',
        'name',
        'preferred_username',
        'nickname',
        'picture',
        'updated_at',
        'email',
        'email_verified',
      ],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      acr_values_supported: ['1'],
      authorization_response_iss_parameter_supported: true,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: true,
      ui_locales_supported: ['en', 'zh-CN'],
      ...extensions,
    });
  });

  it('serves the same document as RFC 8414 metadata', async () => {
    const oidc = await t.http().get('/.well-known/openid-configuration');
    const oauth = await t.http().get('/.well-known/oauth-authorization-server');
    expect(oauth.status).toBe(200);
    expect(oauth.headers['cache-control']).toBe('public, max-age=300');
    expect(oauth.body).toEqual(oidc.body);
  });

  // The issuer integrations of the original service configure (docs/oidc.md, "Two issuers").
  it('serves the document of the issuer {base}/api/oidc with its own endpoints', async () => {
    const canonical = await t.http().get('/.well-known/openid-configuration');
    const alias = `${ISSUER}/api/oidc`;
    for (const path of [
      '/api/oidc/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server/api/oidc',
    ]) {
      const res = await t.http().get(path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.body).toEqual({
        ...canonical.body,
        issuer: alias,
        authorization_endpoint: `${alias}/auth`,
        token_endpoint: `${alias}/token`,
        userinfo_endpoint: `${alias}/userinfo`,
        jwks_uri: `${alias}/.well-known/jwks.json`,
        end_session_endpoint: `${alias}/logout`,
        pushed_authorization_request_endpoint: `${alias}/par`,
        device_authorization_endpoint: `${alias}/device_authorization`,
      });
    }
    const jwks = await t.http().get('/api/oidc/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.headers['cache-control']).toBe('public, max-age=300');
    expect(jwks.body).toEqual((await t.http().get('/api/oidc/jwks')).body);
  });
});

// Fields other features add to the document (revocation, introspection, logout) are listed here
// by those features.
const extensions: Record<string, unknown> = {
  // RFC 7009 (public clients may revoke, section 5) and RFC 7662 (authenticated clients only).
  revocation_endpoint: `${ISSUER}/api/oauth2/revoke`,
  revocation_endpoint_auth_methods_supported: [
    'client_secret_basic',
    'client_secret_post',
    'private_key_jwt',
    'none',
  ],
  revocation_endpoint_auth_signing_alg_values_supported: [
    'RS256',
    'PS256',
    'ES256',
    'EdDSA',
    'Ed25519',
  ],
  introspection_endpoint: `${ISSUER}/api/oauth2/introspect`,
  introspection_endpoint_auth_methods_supported: [
    'client_secret_basic',
    'client_secret_post',
    'private_key_jwt',
  ],
  introspection_endpoint_auth_signing_alg_values_supported: [
    'RS256',
    'PS256',
    'ES256',
    'EdDSA',
    'Ed25519',
  ],
  end_session_endpoint: `${ISSUER}/oauth2/logout`,
  // OpenID Connect Back-Channel Logout 1.0 section 2.1 (docs/oidc.md, "Back-channel logout").
  backchannel_logout_supported: true,
  backchannel_logout_session_supported: true,
  // RFC 9126 section 5; REQUIRE_PUSHED_AUTHORIZATION_REQUESTS is off by default.
  pushed_authorization_request_endpoint: `${ISSUER}/oauth2/par`,
  require_pushed_authorization_requests: false,
  // RFC 8628 section 4.
  device_authorization_endpoint: `${ISSUER}/oauth2/device_authorization`,
  // RFC 9449 section 5.1: the algorithms of DPoP proofs.
  dpop_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'],
};
