import { randomUUID } from 'node:crypto';
import { DPOP_NONCE_WINDOW_SECONDS } from '../../../../src/modules/oauth/dpop/dpop-nonces';
import { DPOP_PROOF_MAX_LENGTH } from '../../../../src/modules/oauth/dpop/dpop-proof';
import {
  dpopKey,
  dpopProof,
  headerJwk,
  noncedProof,
  serverNonce,
  TOKEN_URL,
  type DpopKey,
} from '../../../support/dpop';
import {
  authorizePath,
  authorizeInteractively,
  basic,
  browser,
  expectStatus,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
} from '../../../support/oauth';
import { loadJose } from '../../../support/private-key-jwt';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * DPoP at the token endpoint (RFC 9449 sections 4.3, 5 and 8): every rule of a proof, the
 * server's nonce, and the binding of the tokens it issues. A proof is checked before the grant, so
 * a request whose grant is bogus shows the proof's verdict: `invalid_dpop_proof` or
 * `use_dpop_nonce` when the proof fails, the grant's own error when it holds.
 */
describe('DPoP at the token endpoint', () => {
  let t: TestApp;
  let key: DpopKey;
  beforeAll(async () => {
    t = await createTestApp();
    key = await dpopKey();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** A token request whose grant fails (an unknown refresh token) with `proof`, or headers. */
  function probe(proof: string | string[] | undefined, path = '/api/oauth2/token') {
    const req = t.http().post(path).type('form');
    // An array is sent as that many DPoP header lines.
    if (proof !== undefined) void req.set('DPoP', proof as string);
    return req.send({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: 'none' });
  }

  /** The proof passed: the request went on to its (failing) grant. */
  const passed = (res: { status: number; body: { error?: string } }): boolean =>
    res.status !== 400 || !['invalid_dpop_proof', 'use_dpop_nonce'].includes(res.body.error ?? '');

  function expectRefused(
    res: { status: number; body: unknown; headers: Record<string, unknown> },
    description: string,
  ): void {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_dpop_proof', error_description: description });
  }

  /** A code for a fresh `none` (or `secret`) client and its tokens, exchanged with `proof`. */
  async function exchange(
    authMethod: 'none' | 'secret',
    proof?: (k: DpopKey) => Promise<string>,
    username = 'alice',
  ) {
    const setup = await oauthSetup(t.app, { authMethod, username });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
      username,
    });
    const req = t.http().post('/api/oauth2/token').type('form');
    if (setup.clientSecret) {
      void req.set('Authorization', basic(setup.application.clientId, setup.clientSecret));
    }
    if (proof) void req.set('DPoP', await proof(key));
    const res = await req.send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...(setup.clientSecret ? {} : { client_id: setup.application.clientId }),
    });
    return { ...setup, res };
  }

  function refresh(
    setup: { application: { clientId: string }; clientSecret: string | null },
    refreshToken: string,
    proof?: string,
  ) {
    const req = t.http().post('/api/oauth2/token').type('form');
    if (setup.clientSecret) {
      void req.set('Authorization', basic(setup.application.clientId, setup.clientSecret));
    }
    if (proof) void req.set('DPoP', proof);
    return req.send({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...(setup.clientSecret ? {} : { client_id: setup.application.clientId }),
    });
  }

  const tokenRows = () =>
    t.dataSource.query<{ dpop_jkt: string | null; refresh_dpop_jkt: string | null }[]>(
      'SELECT dpop_jkt, refresh_dpop_jkt, revoked_at FROM oauth_tokens ORDER BY id',
    );

  it('binds the tokens of a code exchange to the proof key: token_type DPoP and a new nonce', async () => {
    const { res } = await exchange('none', (k) => noncedProof(t, k));
    expectStatus(res, 200);
    expect(res.body.token_type).toBe('DPoP');
    expect(typeof res.headers['dpop-nonce']).toBe('string');
    expect(await tokenRows()).toEqual([
      expect.objectContaining({ dpop_jkt: key.jkt, refresh_dpop_jkt: key.jkt }),
    ]);
    // Without a proof the same exchange is a bearer one, as before.
    const bearer = await exchange('none', undefined, 'bob');
    expectStatus(bearer.res, 200);
    expect(bearer.res.body.token_type).toBe('bearer');
    expect(bearer.res.headers['dpop-nonce']).toBeUndefined();
  });

  it('asks for a nonce with use_dpop_nonce and DPoP-Nonce, then accepts the proof that carries it', async () => {
    const first = await probe(await dpopProof(t, key));
    expect(first.status).toBe(400);
    expect(first.body).toEqual({
      error: 'use_dpop_nonce',
      error_description: 'Use the DPoP nonce the server provides',
    });
    const nonce = String(first.headers['dpop-nonce']);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = await probe(await dpopProof(t, key, { nonce }));
    expect(passed(second)).toBe(true);
    expect(second.body.error).toBe('invalid_client');
  });

  it('refuses a nonce of a window before the previous one, and a made-up nonce', async () => {
    const nonce = await serverNonce(t, key);
    t.clock.advance(DPOP_NONCE_WINDOW_SECONDS * 1000);
    // One window later the nonce is the previous one: still accepted, and a new one is offered.
    const previous = await probe(await dpopProof(t, key, { nonce }));
    expect(passed(previous)).toBe(true);
    t.clock.advance(DPOP_NONCE_WINDOW_SECONDS * 1000);
    const stale = await probe(await dpopProof(t, key, { nonce }));
    expect(stale.body.error).toBe('use_dpop_nonce');
    expect(stale.headers['dpop-nonce']).not.toBe(nonce);
    const madeUp = await probe(await dpopProof(t, key, { nonce: 'A'.repeat(43) }));
    expect(madeUp.body.error).toBe('use_dpop_nonce');
  });

  it('refuses a replayed proof (the same jti)', async () => {
    const proof = await noncedProof(t, key);
    expect(passed(await probe(proof))).toBe(true);
    expectRefused(await probe(proof), 'The DPoP proof was already used');
    // Another proof with the same jti by the same key is the same proof.
    const jti = randomUUID();
    expect(passed(await probe(await noncedProof(t, key, { jti })))).toBe(true);
    expectRefused(
      await probe(await noncedProof(t, key, { jti })),
      'The DPoP proof was already used',
    );
    // The same jti from another key is another key's proof.
    expect(passed(await probe(await noncedProof(t, await dpopKey(), { jti })))).toBe(true);
  });

  it('refuses a proof made for another method or another URL, and ignores its query and fragment', async () => {
    const nonce = await serverNonce(t, key);
    const proof = (options: { htm?: string; htu?: string }) =>
      dpopProof(t, key, { nonce, ...options });
    expectRefused(await probe(await proof({ htm: 'GET' })), 'The DPoP proof is for another method');
    expectRefused(
      await probe(await proof({ htm: 'post' })),
      'The DPoP proof is for another method',
    );
    for (const htu of [
      `${TOKEN_URL.replace('/token', '/userinfo')}`,
      `${TOKEN_URL}/`,
      TOKEN_URL.replace('http://', 'https://'),
      TOKEN_URL.replace('127.0.0.1:3000', '127.0.0.1:3001'),
      '/api/oauth2/token',
    ]) {
      expectRefused(await probe(await proof({ htu })), 'The DPoP proof is for another URL');
    }
    // The alias endpoint wants its own URL.
    expectRefused(
      await probe(await proof({}), '/api/oidc/token'),
      'The DPoP proof is for another URL',
    );
    const dotted = TOKEN_URL.replace('/token', '/oidc-x/../token');
    expect(passed(await probe(await proof({ htu: dotted })))).toBe(true);
    expect(passed(await probe(await proof({ htu: `${TOKEN_URL}?a=1#f` })))).toBe(true);
    expect(passed(await probe(await proof({ htu: TOKEN_URL.replace('http:', 'HTTP:') })))).toBe(
      true,
    );
    expect(
      passed(
        await probe(
          await proof({ htu: TOKEN_URL.replace('/api/oauth2/', '/api/oidc/') }),
          '/api/oidc/token',
        ),
      ),
    ).toBe(true);
  });

  it('refuses a proof whose iat is outside the window', async () => {
    const nonce = await serverNonce(t, key);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const refusal = 'The DPoP proof is too old or dated in the future';
    expectRefused(await probe(await dpopProof(t, key, { nonce, iat: now - 301 })), refusal);
    expectRefused(await probe(await dpopProof(t, key, { nonce, iat: now + 61 })), refusal);
    expect(passed(await probe(await dpopProof(t, key, { nonce, iat: now - 299 })))).toBe(true);
    expect(passed(await probe(await dpopProof(t, key, { nonce, iat: now + 59 })))).toBe(true);
  });

  it('refuses alg none, an HMAC, a private key in the header and a typ other than dpop+jwt', async () => {
    const jose = await loadJose();
    const nonce = await serverNonce(t, key);
    const claims = {
      jti: randomUUID(),
      htm: 'POST',
      htu: TOKEN_URL,
      iat: Math.floor(t.clock.now().getTime() / 1000),
      nonce,
    };
    const jwk = headerJwk(key);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const none = `${b64({ typ: 'dpop+jwt', alg: 'none', jwk })}.${b64(claims)}.`;
    expectRefused(
      await probe(none),
      'The DPoP proof is signed with an algorithm that is not allowed',
    );
    const hmac = await new jose.SignJWT(claims)
      .setProtectedHeader({
        typ: 'dpop+jwt',
        alg: 'HS256',
        jwk: { kty: 'oct', k: 'c2VjcmV0' } as never,
      })
      .sign(new TextEncoder().encode('secret'));
    expectRefused(await probe(hmac), 'The DPoP proof key must be a public key');
    const hmacWithPublicJwk = await new jose.SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk })
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    expectRefused(
      await probe(hmacWithPublicJwk),
      'The DPoP proof is signed with an algorithm that is not allowed',
    );
    const privateJwk = await jose.exportJWK(key.privateKey);
    expectRefused(
      await probe(await dpopProof(t, key, { nonce, header: { jwk: privateJwk } })),
      'The DPoP proof key must be a public key',
    );
    expectRefused(
      await probe(await dpopProof(t, key, { nonce, header: { typ: 'JWT' } })),
      'The DPoP proof must have typ dpop+jwt',
    );
    expectRefused(
      await probe(await dpopProof(t, key, { nonce, header: { jwk: undefined } })),
      'The DPoP proof needs a jwk header',
    );
  });

  it('refuses a proof not signed by the key in its header', async () => {
    const nonce = await serverNonce(t, key);
    const other = await dpopKey();
    const otherJwk = headerJwk(other);
    expectRefused(
      await probe(await dpopProof(t, key, { nonce, header: { jwk: otherJwk } })),
      'The DPoP proof signature does not verify with its key',
    );
  });

  it('refuses two DPoP headers, a header that is not one JWT, a missing claim and an oversized proof', async () => {
    const nonce = await serverNonce(t, key);
    const proof = await dpopProof(t, key, { nonce });
    expectRefused(await probe([proof, proof]), 'Send exactly one DPoP header');
    expectRefused(await probe('not a jwt'), 'The DPoP proof is not a JWT');
    expectRefused(await probe(`${proof}.${proof}`), 'The DPoP proof is not a JWT');
    const [header, payload] = proof.split('.');
    expectRefused(
      await probe(`${header}.${payload}.`),
      'The DPoP proof signature does not verify with its key',
    );
    for (const [claim, description] of [
      ['jti', 'The DPoP proof needs a jti'],
      ['htm', 'The DPoP proof needs htm'],
      ['htu', 'The DPoP proof needs htu'],
      ['iat', 'The DPoP proof needs iat'],
    ]) {
      const missing = await dpopProof(t, key, { nonce, claims: { [claim]: undefined } });
      expectRefused(await probe(missing), description);
    }
    const oversized = await dpopProof(t, key, {
      nonce,
      claims: { padding: 'x'.repeat(DPOP_PROOF_MAX_LENGTH) },
    });
    expectRefused(await probe(oversized), 'The DPoP proof is too long');
  });

  it("binds a public client's refresh token to its key: another key or no proof is refused and the family lives on", async () => {
    const setup = await exchange('none', (k) => noncedProof(t, k));
    expectStatus(setup.res, 200);
    const refreshToken = setup.res.body.refresh_token as string;
    const refusal = {
      error: 'invalid_grant',
      error_description: 'The refresh token is bound to a DPoP key: send a proof of that key',
    };
    const withoutProof = await refresh(setup, refreshToken);
    expect(withoutProof.status).toBe(400);
    expect(withoutProof.body).toEqual(refusal);
    const thief = await dpopKey();
    const withOtherKey = await refresh(setup, refreshToken, await noncedProof(t, thief));
    expect(withOtherKey.status).toBe(400);
    expect(withOtherKey.body).toEqual(refusal);
    // Nothing was revoked or rotated: the owner refreshes with its key.
    const owner = await refresh(setup, refreshToken, await noncedProof(t, key));
    expectStatus(owner, 200);
    expect(owner.body.token_type).toBe('DPoP');
    const rows = await tokenRows();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.dpop_jkt === key.jkt && row.refresh_dpop_jkt === key.jkt)).toBe(
      true,
    );
  });

  it('lets a confidential client refresh with a new key: its refresh token is bound by its authentication', async () => {
    const setup = await exchange('secret', (k) => noncedProof(t, k));
    expectStatus(setup.res, 200);
    expect(await tokenRows()).toEqual([
      expect.objectContaining({ dpop_jkt: key.jkt, refresh_dpop_jkt: null }),
    ]);
    const next = await dpopKey();
    const rotated = await refresh(setup, setup.res.body.refresh_token, await noncedProof(t, next));
    expectStatus(rotated, 200);
    expect(rotated.body.token_type).toBe('DPoP');
    const bearer = await refresh(setup, rotated.body.refresh_token);
    expectStatus(bearer, 200);
    expect(bearer.body.token_type).toBe('bearer');
    expect((await tokenRows()).map((row) => row.dpop_jkt)).toEqual([key.jkt, next.jkt, null]);
  });

  it('refuses dpop_jkt at /authorize and at the pushed authorization request endpoint', async () => {
    const setup = await oauthSetup(t.app, { authMethod: 'none' });
    const params = {
      client_id: setup.application.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'read',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      dpop_jkt: key.jkt,
    };
    const description =
      'dpop_jkt is not supported: send a DPoP proof with the token request to bind the tokens';
    const direct = await t.http().get(authorizePath(params));
    expect(direct.status).toBe(302);
    expect(query(direct.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: description,
    });
    const pushed = await t.http().post('/oauth2/par').type('form').send(params);
    expect(pushed.status).toBe(400);
    expect(pushed.body).toEqual({ error: 'invalid_request', error_description: description });
  });

  it('refuses a token request without a proof from a client with dpop_bound_access_tokens', async () => {
    const setup = await oauthSetup(t.app, { authMethod: 'none' });
    await t.dataSource.query(
      'UPDATE applications SET dpop_bound_access_tokens = true WHERE id = $1',
      [setup.application.id],
    );
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
    });
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: setup.application.clientId,
    };
    const refused = await t.http().post('/api/oauth2/token').type('form').send(form);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid_request',
      error_description: 'This client must send a DPoP proof with its token requests',
    });
    // The code was not spent: the same request with a proof gets bound tokens.
    const bound = await t
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('DPoP', await noncedProof(t, key))
      .send(form);
    expectStatus(bound, 200);
    expect(bound.body.token_type).toBe('DPoP');
  });
});
