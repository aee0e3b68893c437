import { runInApp } from '../../../factories';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { dpopKey, noncedProof } from '../../../support/dpop';
import { basic } from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * dpop_bound_access_tokens of one application (RFC 9449 section 5.2): set in the console (no
 * passkey confirmation, like requiring pushed requests: it only narrows what the client may get)
 * and in the CLI; the token endpoint then refuses the client's requests without a proof.
 */
describe('Requiring DPoP per application', () => {
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

  const appPath = () => `/api/console/applications/${w.applicationId}`;

  /** A token request of the console world's client (its secret) for an unknown refresh token. */
  async function tokenRequest(clientId: string, secret: string, proof?: string) {
    const req = t
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('Authorization', basic(clientId, secret));
    if (proof !== undefined) void req.set('DPoP', proof);
    return req.send({ grant_type: 'refresh_token', refresh_token: 'unknown' });
  }

  it('lets an admin require DPoP in the console, audited, and the token endpoint follows', async () => {
    const detail = await w.admin.request('get', appPath()).expect(200);
    expect(detail.body).toMatchObject({ dpopBoundAccessTokens: false });
    const { clientId } = detail.body as { clientId: string };
    const clientSecret = w.clientSecret;
    // Off: a request without a proof goes on to its grant (an unknown refresh token).
    expect((await tokenRequest(clientId, clientSecret)).body.error).toBe('invalid_grant');
    const res = await w.admin.request('patch', appPath()).send({ dpopBoundAccessTokens: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dpopBoundAccessTokens: true, clientSecret: null });
    const refused = await tokenRequest(clientId, clientSecret);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid_request',
      error_description: 'This client must send a DPoP proof with its token requests',
    });
    const withProof = await tokenRequest(
      clientId,
      clientSecret,
      await noncedProof(t, await dpopKey()),
    );
    expect(withProof.body.error).toBe('invalid_grant');
    const log = await w.owner.request('get', `${appPath()}/audit-log`).expect(200);
    expect(
      (log.body as { entries: { action: string; details: object }[] }).entries[0],
    ).toMatchObject({ action: 'application.update', details: { dpopBoundAccessTokens: true } });
    const viewer = await w.viewer
      .request('patch', appPath())
      .send({ dpopBoundAccessTokens: false });
    expect(viewer.status).toBe(403);
    const bad = await w.admin.request('patch', appPath()).send({ dpopBoundAccessTokens: 'yes' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toBe('invalid_body');
  });

  it('sets it from the CLI: app create --require-dpop and app update --require-dpop', async () => {
    const cli = (...argv: string[]) => runInApp(t.app, argv);
    const created = await cli(
      'app',
      'create',
      '--name',
      'Bound',
      '--redirect-uri',
      'https://client.example/cb',
      '--require-dpop',
      'on',
      '--json',
    );
    expect(created.exitCode).toBe(0);
    const { id, clientId, clientSecret } = JSON.parse(created.stdout) as {
      id: number;
      clientId: string;
      clientSecret: string;
    };
    const list = JSON.parse((await cli('app', 'list', '--json')).stdout) as {
      items: { id: number; dpopBoundAccessTokens: boolean }[];
    };
    expect(list.items.find((item) => item.id === id)).toMatchObject({
      dpopBoundAccessTokens: true,
    });
    expect((await tokenRequest(clientId, clientSecret)).body.error).toBe('invalid_request');
    const off = await cli('app', 'update', String(id), '--require-dpop', 'off', '--json');
    expect(off.exitCode).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({
      id,
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
      deviceCodeGrant: false,
      securityProfile: 'none',
      idTokenSignedResponseAlg: 'RS256',
    });
    expect((await tokenRequest(clientId, clientSecret)).body.error).toBe('invalid_grant');
    const bad = await cli('app', 'update', String(id), '--require-dpop', 'maybe', '--json');
    expect(bad.exitCode).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toContain('--require-dpop must be on or off');
  });
});
