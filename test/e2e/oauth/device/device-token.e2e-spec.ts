import { dpopKey, noncedProof } from '../../../support/dpop';
import {
  DEVICE_GRANT,
  deviceSetup,
  personAnswers,
  poll,
  startDevice,
} from '../../../support/device';
import { browser, expectStatus, tokenRequest } from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';
import { createApplication } from '../../../factories';

const SECOND = 1000;

/** The payload of a JWT (the signature is openid-client's business in device-openid-client). */
const payloadOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

// The token endpoint's grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628
// section 3.4; docs/oauth.md, "Device authorization grant"; docs/security.md).
describe('device code grant at the token endpoint', () => {
  let t: TestApp;
  /** A second instance on the same database and clock (only with DATABASE_URL; else t itself). */
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

  const row = async () =>
    (
      await t.dataSource.query<{ status: string; interval_seconds: number }[]>(
        'SELECT status, interval_seconds FROM oauth_device_codes',
      )
    )[0];

  it('answers authorization_pending until the person answers', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId);
    const res = await poll(t.app, application.clientId, started.device_code);
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.error).toBe('authorization_pending');
    t.clock.advance(5 * SECOND);
    expect((await poll(t.app, application.clientId, started.device_code)).body.error).toBe(
      'authorization_pending',
    );
  });

  it("refuses an unknown device code and another client's as invalid_grant", async () => {
    const { application } = await deviceSetup(t.app);
    const { application: otherClient } = await createApplication(t.app, {
      authMethod: 'none',
      name: 'Other TV',
      deviceCodeGrant: true,
    });
    const started = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), started.user_code);

    const unknown = await poll(t.app, application.clientId, 'not-a-device-code');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_grant');
    const stolen = await poll(t.app, otherClient.clientId, started.device_code);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect(stolen.body.access_token).toBeUndefined();
    // The code is untouched: its own client still redeems it.
    expect(await row()).toEqual({ status: 'approved', interval_seconds: 5 });
    expectStatus(await poll(t.app, application.clientId, started.device_code), 200);
  });

  it('issues tokens for an approved code once; the second redemption is invalid_grant', async () => {
    const { application, user } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'openid profile');
    await personAnswers(browser(t.app), started.user_code);
    const approvedAt = Math.floor(t.clock.now().getTime() / 1000);
    t.clock.advance(5 * SECOND);

    const res = await poll(t.app, application.clientId, started.device_code);
    expectStatus(res, 200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.any(String),
      scope: 'openid profile',
      id_token: expect.any(String),
    });
    const claims = payloadOf(res.body.id_token);
    expect(claims).toMatchObject({
      iss: 'http://127.0.0.1:3000',
      sub: String(user.id),
      aud: application.clientId,
      auth_time: approvedAt,
      amr: ['pwd'],
      preferred_username: 'alice',
    });
    // No nonce (the device sent none) and no sid (the grant is not part of a browser session).
    expect(claims).not.toHaveProperty('nonce');
    expect(claims).not.toHaveProperty('sid');

    t.clock.advance(5 * SECOND);
    const again = await poll(t.app, application.clientId, started.device_code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect(await row()).toMatchObject({ status: 'redeemed' });

    // The tokens live as a code exchange's: userinfo, a refresh whose id_token repeats auth_time.
    const info = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${res.body.access_token}`);
    expectStatus(info, 200);
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: res.body.refresh_token,
      client_id: application.clientId,
    });
    expectStatus(refreshed, 200);
    expect(payloadOf(refreshed.body.id_token)).toMatchObject({
      auth_time: approvedAt,
      amr: ['pwd'],
    });
    const events = await t.dataSource.query<{ event_type: string }[]>(
      'SELECT event_type FROM events ORDER BY id',
    );
    expect(events.map((e) => e.event_type)).toEqual([
      'authorization_granted',
      'token_issued',
      'token_refreshed',
    ]);
  });

  it("binds the tokens to the key of the poll's DPoP proof", async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), started.user_code);
    const key = await dpopKey();
    const res = await t
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('DPoP', await noncedProof(t, key))
      .send({
        grant_type: DEVICE_GRANT,
        device_code: started.device_code,
        client_id: application.clientId,
      });
    expectStatus(res, 200);
    expect(res.body.token_type).toBe('DPoP');
    const [token] = await t.dataSource.query('SELECT dpop_jkt, refresh_dpop_jkt FROM oauth_tokens');
    expect(token).toEqual({ dpop_jkt: key.jkt, refresh_dpop_jkt: key.jkt });
  });

  it('answers slow_down to a poll inside the interval, also on a second instance, and adds 5 s to the interval', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const pollOn = (instance: TestApp) =>
      poll(instance.app, application.clientId, started.device_code);

    expect((await pollOn(t)).body.error).toBe('authorization_pending');
    t.clock.advance(1 * SECOND);
    // The other instance reads the same row: 1 s after the last poll is inside 5 s.
    const fast = await pollOn(other);
    expect(fast.status).toBe(400);
    expect(fast.body.error).toBe('slow_down');
    expect(await row()).toEqual({ status: 'pending', interval_seconds: 10 });
    // 6 s after that poll is inside the new 10 s interval: slow_down again, 15 s now.
    t.clock.advance(6 * SECOND);
    expect((await pollOn(t)).body.error).toBe('slow_down');
    expect(await row()).toEqual({ status: 'pending', interval_seconds: 15 });
    // A poll that waits the interval is answered.
    t.clock.advance(15 * SECOND);
    expect((await pollOn(other)).body.error).toBe('authorization_pending');
    expect(await row()).toEqual({ status: 'pending', interval_seconds: 15 });

    // An approved code polled too soon is not redeemed by that poll.
    await personAnswers(browser(t.app), started.user_code);
    t.clock.advance(1 * SECOND);
    expect((await pollOn(t)).body.error).toBe('slow_down');
    expect(await row()).toEqual({ status: 'approved', interval_seconds: 20 });
    t.clock.advance(20 * SECOND);
    expectStatus(await pollOn(other), 200);
  });

  it("answers access_denied after a refusal and expired_token after the code's lifetime", async () => {
    const { application } = await deviceSetup(t.app);
    const denied = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), denied.user_code, 'deny');
    const refused = await poll(t.app, application.clientId, denied.device_code);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('access_denied');

    const late = await startDevice(t.app, application.clientId, 'read');
    t.clock.advance(600 * SECOND);
    const expired = await poll(t.app, application.clientId, late.device_code);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('expired_token');
  });

  it('issues no tokens once the application or the user is disabled after the approval', async () => {
    const { application, user } = await deviceSetup(t.app);
    // The user's access to the application is disabled after the approval: invalid_grant.
    const first = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), first.user_code);
    await t.dataSource.query('UPDATE app_users SET enabled = false WHERE user_id = $1', [user.id]);
    const forUser = await poll(t.app, application.clientId, first.device_code);
    expect(forUser.status).toBe(400);
    expect(forUser.body.error).toBe('invalid_grant');
    expect(forUser.body.access_token).toBeUndefined();
    await t.dataSource.query('UPDATE app_users SET enabled = true WHERE user_id = $1', [user.id]);

    // The application is disabled after the approval: its client is refused before the grant.
    const second = await startDevice(t.app, application.clientId, 'read');
    t.clock.advance(5 * SECOND);
    await personAnswers(browser(t.app), second.user_code);
    await t.dataSource.query('UPDATE applications SET enabled = false WHERE id = $1', [
      application.id,
    ]);
    const forApp = await poll(t.app, application.clientId, second.device_code);
    expect(forApp.status).toBe(400);
    expect(forApp.body.error).toBe('unauthorized_client');
    expect(forApp.body.access_token).toBeUndefined();
    expect(await t.dataSource.query('SELECT id FROM oauth_tokens')).toEqual([]);
  });
});
