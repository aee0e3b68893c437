import { dpopKey, dpopProof, serverNonce, USERINFO_URL } from '../../../support/dpop';
import {
  authorizeInteractively,
  browser,
  expectStatus,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';

/**
 * DPoP across instances: every instance derives the same nonces from SESSION_SECRET, so a nonce
 * one gave is good at another, and a proof's jti is spent in PostgreSQL, so a proof used at one
 * is refused at every other. Two instances on one database exist only with DATABASE_URL (the
 * embedded database belongs to one process); there the one instance plays both.
 */
describe('DPoP across two instances', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    other = usingRealServices() ? await createTestApp({ clock: t.clock }) : t;
  });
  afterAll(async () => {
    if (other !== t) await other.close();
    await t.close();
  });
  beforeEach(() => t.truncate());

  /** A token request whose proof passes and whose grant then fails: an unknown refresh token. */
  const unknownRefresh = (instance: TestApp, clientId: string, proof: string) =>
    instance
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('DPoP', proof)
      .send({ grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: clientId });

  it('accepts on one instance a nonce the other gave', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const key = await dpopKey();
    const nonce = await serverNonce(t, key);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge,
    });

    const exchanged = await other
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('DPoP', await dpopProof(other, key, { nonce }))
      .send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: application.clientId,
        code_verifier: verifier,
      });
    expectStatus(exchanged, 200);
    expect(exchanged.body).toMatchObject({ token_type: 'DPoP' });
    // The other instance hands out the very nonce the first gave (same window, same secret).
    expect(exchanged.headers['dpop-nonce']).toBe(nonce);

    // And back: the first instance's userinfo takes a proof with the nonce the other sent.
    const accessToken = (exchanged.body as { access_token: string }).access_token;
    const info = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `DPoP ${accessToken}`)
      .set(
        'DPoP',
        await dpopProof(t, key, {
          htm: 'GET',
          htu: USERINFO_URL,
          accessToken,
          nonce: exchanged.headers['dpop-nonce'],
        }),
      );
    expectStatus(info, 200);
    expect(info.body).toMatchObject({ username: 'alice' });
  });

  it('refuses on one instance a proof already used on the other', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const key = await dpopKey();
    const nonce = await serverNonce(t, key);

    const proof = await dpopProof(t, key, { nonce });
    const first = await unknownRefresh(t, application.clientId, proof);
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ error: 'invalid_grant' });
    const replay = await unknownRefresh(other, application.clientId, proof);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_dpop_proof',
      error_description: 'The DPoP proof was already used',
    });

    // One fresh proof sent ten times at once across both instances: one use passes the proof
    // check (and fails on the unknown grant), every other is a replay.
    const once = await dpopProof(t, key, { nonce });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        unknownRefresh(i % 2 === 0 ? t : other, application.clientId, once),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(400));
    expect(answers.map((res) => (res.body as { error: string }).error).sort()).toEqual([
      ...Array(9).fill('invalid_dpop_proof'),
      'invalid_grant',
    ]);
  });
});
