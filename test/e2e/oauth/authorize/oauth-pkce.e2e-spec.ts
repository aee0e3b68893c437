import {
  authorizeInteractively,
  basic,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('PKCE (RFC 7636) at the token endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function codeFor(authMethod: 'none' | 'secret', withChallenge = true) {
    const setup = await oauthSetup(t.app, { authMethod });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge: withChallenge ? challenge : undefined,
    });
    return { ...setup, verifier, code };
  }

  it('exchanges a public client code with client_id and the right code_verifier', async () => {
    const { application, verifier, code } = await codeFor('none');
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('bearer');
  });

  it('refuses a wrong verifier with invalid_grant and spends the code', async () => {
    const { application, verifier, code } = await codeFor('none');
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
    };
    const wrong = await tokenRequest(t.app, { ...form, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The code_verifier does not match the code_challenge',
    });
    const right = await tokenRequest(t.app, { ...form, code_verifier: verifier });
    expect(right.status).toBe(400);
    expect(right.body.error).toBe('invalid_grant');
  });

  it('requires code_verifier from a public client', async () => {
    const { application, code } = await codeFor('none');
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'Public clients must send code_verifier',
    });
  });

  it('rejects a malformed verifier before touching the code', async () => {
    const { application, code, verifier } = await codeFor('none');
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
    };
    const short = await tokenRequest(t.app, { ...form, code_verifier: 'too-short' });
    expect(short.body).toEqual({
      error: 'invalid_request',
      error_description: 'code_verifier must be 43 to 128 unreserved characters',
    });
    expect((await tokenRequest(t.app, { ...form, code_verifier: verifier })).status).toBe(200);
  });

  it('refuses a verifier for a code issued without a challenge (secret client)', async () => {
    const { application, clientSecret, code } = await codeFor('secret', false);
    const res = await tokenRequest(
      t.app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: pkce().verifier,
      },
      basic(application.clientId, clientSecret!),
    );
    expect(res.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The code was issued without a PKCE challenge',
    });
  });

  it('holds a secret client that sent a challenge to its verifier', async () => {
    const { application, clientSecret, code, verifier } = await codeFor('secret');
    const auth = basic(application.clientId, clientSecret!);
    const missing = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      auth,
    );
    expect(missing.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier is required for this code',
    });
    const { code: code2 } = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    const wrong = await tokenRequest(
      t.app,
      {
        grant_type: 'authorization_code',
        code: code2,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      },
      auth,
    );
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('spends nothing for a disabled public client or a confidential client sending only its client_id', async () => {
    const { application, verifier, code } = await codeFor('none');
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    };
    const setEnabled = (enabled: boolean) =>
      t.dataSource.query('UPDATE applications SET enabled = $2 WHERE id = $1', [
        application.id,
        enabled,
      ]);
    await setEnabled(false);
    const disabled = await tokenRequest(t.app, form);
    expect(disabled.status).toBe(400);
    expect(disabled.body).toEqual({
      error: 'unauthorized_client',
      error_description: 'The application is disabled',
    });
    await t.dataSource.query(
      "UPDATE applications SET enabled = true, client_auth_method = 'secret' WHERE id = $1",
      [application.id],
    );
    const withoutSecret = await tokenRequest(t.app, form);
    expect(withoutSecret.status).toBe(401);
    expect(withoutSecret.body.error).toBe('invalid_client');
    const [{ consumed }] = await t.dataSource.query(
      'SELECT count(*)::int AS consumed FROM oauth_codes WHERE consumed_at IS NOT NULL',
    );
    expect(consumed).toBe(0);
    await t.dataSource.query("UPDATE applications SET client_auth_method = 'none' WHERE id = $1", [
      application.id,
    ]);
    expect((await tokenRequest(t.app, form)).status).toBe(200);
  });

  it('refuses a client_secret from a public client', async () => {
    const { application, code, verifier } = await codeFor('none');
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      client_secret: 'x',
      code_verifier: verifier,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});
