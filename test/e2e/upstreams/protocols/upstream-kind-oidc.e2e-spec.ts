import { randomBytes } from 'node:crypto';
import {
  StartParams,
  UpstreamError,
  UpstreamProvider,
} from '../../../../src/modules/upstreams/providers/upstream-provider';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { GOOGLE_ISSUER } from '../../../../src/modules/upstreams/protocols/oidc';
import { createTestApp, TestApp } from '../../../support/test-app';
import { followToCallback } from '../../../support/upstream-standins/browser';
import { json, startStandIn } from '../../../support/upstream-standins/server';
import {
  OidcStandIn,
  startImpostorIssuer,
  startOidcStandIn,
} from '../../../support/upstream-standins/oidc';

const CALLBACK = 'http://127.0.0.1:9/api/auth/upstream/corp/callback';

function freshParams(): StartParams {
  return {
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    codeVerifier: randomBytes(32).toString('base64url'),
    redirectUri: CALLBACK,
  };
}

/** The kind `oidc` against a real OpenID provider (panva's oidc-provider) on loopback. */
describe('upstream kind oidc', () => {
  let t: TestApp;
  let op: OidcStandIn;
  let service: UpstreamProvidersService;

  beforeAll(async () => {
    t = await createTestApp();
    op = await startOidcStandIn([CALLBACK]);
    service = t.app.get(UpstreamProvidersService);
  });
  afterAll(async () => {
    await op.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    op.account = { sub: 'oidc-user-1' };
  });

  async function configure(issuer = op.issuer): Promise<UpstreamProvider> {
    await service.create({
      id: 'corp',
      displayName: 'Corp SSO',
      kind: 'oidc',
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      settings: { issuer },
    });
    const provider = await service.find('corp');
    if (!provider) throw new Error('provider not found');
    return provider;
  }

  it('signs in with code + PKCE S256 + nonce; the profile comes from the validated id_token', async () => {
    op.account = {
      sub: 'u-42',
      email: 'ada@corp.example',
      email_verified: true,
      preferred_username: 'ada',
      picture: 'https://corp.example/ada.png',
    };
    const provider = await configure();
    const params = freshParams();
    const url = new URL(await service.authorizationUrl(provider, params));
    expect(url.origin).toBe(op.issuer);
    expect(Object.fromEntries(url.searchParams)).toEqual(
      expect.objectContaining({
        client_id: op.clientId,
        response_type: 'code',
        redirect_uri: CALLBACK,
        state: params.state,
        nonce: params.nonce,
        code_challenge_method: 'S256',
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      }),
    );

    const query = await followToCallback(url.href, CALLBACK);
    expect(query.code).toEqual(expect.any(String));
    const profile = await service.complete(provider, query, params);
    expect(profile).toEqual({
      subject: 'u-42',
      username: 'ada',
      email: 'ada@corp.example',
      emailVerified: true,
      avatar: 'https://corp.example/ada.png',
      providerData: { iss: op.issuer },
    });

    // A replayed callback: the code is single-use at the provider.
    await expect(service.complete(provider, query, params)).rejects.toMatchObject({
      reason: 'invalid_response',
      message: expect.stringContaining('invalid_grant'),
    });
  });

  it('reads the profile from userinfo when the id_token carries only sub (strict provider)', async () => {
    const strict = await startOidcStandIn([CALLBACK], { conformIdTokenClaims: true });
    try {
      strict.account = {
        sub: 'u-9',
        email: 'cy@corp.example',
        email_verified: true,
        preferred_username: 'cy',
        picture: 'https://corp.example/cy.png',
      };
      const provider = await configure(strict.issuer);
      const params = freshParams();
      const query = await followToCallback(
        await service.authorizationUrl(provider, params),
        CALLBACK,
      );
      expect(await service.complete(provider, query, params)).toEqual({
        subject: 'u-9',
        username: 'cy',
        email: 'cy@corp.example',
        emailVerified: true,
        avatar: 'https://corp.example/cy.png',
        providerData: { iss: strict.issuer },
      });
      expect(strict.userinfoRequests).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it('does not call userinfo when the id_token has the profile claims', async () => {
    op.account = {
      sub: 'u-10',
      email: 'dee@corp.example',
      email_verified: false,
      preferred_username: 'dee',
      picture: 'https://corp.example/dee.png',
    };
    const before = op.userinfoRequests;
    const provider = await configure();
    const params = freshParams();
    const query = await followToCallback(
      await service.authorizationUrl(provider, params),
      CALLBACK,
    );
    expect(await service.complete(provider, query, params)).toEqual(
      expect.objectContaining({ subject: 'u-10', username: 'dee', emailVerified: false }),
    );
    expect(op.userinfoRequests).toBe(before);
  });

  it('keeps an unverified email unverified', async () => {
    op.account = { sub: 'u-7', email: 'bob@corp.example', email_verified: false };
    const provider = await configure();
    const params = freshParams();
    const query = await followToCallback(
      await service.authorizationUrl(provider, params),
      CALLBACK,
    );
    const profile = await service.complete(provider, query, params);
    expect(profile).toEqual(
      expect.objectContaining({ subject: 'u-7', email: 'bob@corp.example', emailVerified: false }),
    );
  });

  it('refuses an id_token whose nonce is not the one sent', async () => {
    const provider = await configure();
    const params = freshParams();
    const query = await followToCallback(
      await service.authorizationUrl(provider, params),
      CALLBACK,
    );
    const error = (await service
      .complete(provider, query, { ...params, nonce: 'some-other-nonce' })
      .catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.reason).toBe('invalid_response');
    expect(error.message).toMatch(/"nonce"/);
  });

  it('refuses an id_token from another issuer than the configured one', async () => {
    const impostor = await startImpostorIssuer(op);
    try {
      const provider = await configure(impostor.issuer);
      const params = freshParams();
      const query = await followToCallback(
        await service.authorizationUrl(provider, params),
        CALLBACK,
      );
      const { iss, ...withoutIss } = query;
      expect(iss).toBe(op.issuer);
      // The id_token names its real issuer, not the configured one.
      const error = (await service
        .complete(provider, withoutIss, params)
        .catch((e: unknown) => e)) as UpstreamError;
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toMatch(/"iss"/);
    } finally {
      await impostor.close();
    }
  });

  it('maps a denial, a state mismatch and an unreachable issuer to their reasons', async () => {
    const provider = await configure();
    const params = freshParams();
    await expect(
      service.complete(provider, { error: 'access_denied', state: params.state }, params),
    ).rejects.toMatchObject({ reason: 'denied' });

    const query = await followToCallback(
      await service.authorizationUrl(provider, params),
      CALLBACK,
    );
    await expect(
      service.complete(provider, { ...query, state: 'forged' }, params),
    ).rejects.toMatchObject({ reason: 'invalid_state' });

    await service.create({
      id: 'down',
      displayName: 'Down',
      kind: 'oidc',
      clientId: 'c',
      clientSecret: 's',
      settings: { issuer: 'http://127.0.0.1:9' },
    });
    const down = (await service.find('down')) as UpstreamProvider;
    await expect(service.authorizationUrl(down, freshParams())).rejects.toMatchObject({
      reason: 'unavailable',
    });
  });

  it('refuses a discovery document that lists a plain http endpoint off loopback', async () => {
    // A loopback issuer may speak http itself; its document still may not send codes elsewhere.
    const document = await startStandIn((req) => {
      const issuer = req.url.origin;
      return json({
        issuer,
        authorization_endpoint: 'http://op.example/authorize',
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    });
    try {
      const provider = await configure(document.origin);
      const error = (await service
        .authorizationUrl(provider, freshParams())
        .catch((e: unknown) => e)) as UpstreamError;
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error.reason).toBe('unavailable');
      expect(error.message).toMatch(/authorization_endpoint is not an https URL/);
    } finally {
      await document.close();
    }
  });

  it('google is oidc with https://accounts.google.com as the default issuer', async () => {
    await service.create({
      id: 'google',
      displayName: 'Google',
      kind: 'google',
      clientId: 'g',
      clientSecret: 's',
    });
    expect(await service.get('google')).toEqual(expect.objectContaining({ settings: {} }));
    expect(GOOGLE_ISSUER).toBe('https://accounts.google.com');
  });
});
