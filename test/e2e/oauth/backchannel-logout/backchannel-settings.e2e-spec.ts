import { runInApp } from '../../../factories';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';

const URI = 'https://rp.example/backchannel-logout';

/**
 * Registration of `backchannel_logout_uri` and `backchannel_logout_session_required` (docs/oidc.md,
 * "Back-channel logout"; docs/console.md): the webhook URL rules, and a passkey confirmation
 * bound to the address for setting or changing it in the console.
 */
describe('Back-channel logout settings', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.admin, authenticator);
  });

  const path = () => `/api/console/applications/${w.applicationId}`;
  const confirmed = (backchannelLogoutUri: string | null): Promise<string> =>
    confirmationToken(w.admin, authenticator, {
      action: 'client_settings.update',
      applicationId: w.applicationId,
      settings: { backchannelLogoutUri },
    });
  const stored = async (): Promise<{ uri: string | null; required: boolean }> =>
    (
      await t.dataSource.query<{ uri: string | null; required: boolean }[]>(
        `SELECT backchannel_logout_uri AS uri, backchannel_logout_session_required AS required
         FROM applications WHERE id = $1`,
        [w.applicationId],
      )
    )[0];
  const audited = async (): Promise<{ action: string; details: object }[]> =>
    t.dataSource.query(
      `SELECT action, details FROM audit_log
       WHERE application_id = $1 AND action LIKE 'application.%' AND action <> 'application.create'
       ORDER BY id`,
      [w.applicationId],
    );

  it('refuses a backchannel_logout_uri that is not https or has a fragment', async () => {
    const cases: [unknown, string][] = [
      ['http://rp.example/logout', 'insecure_endpoint'],
      // Loopback http needs WEBHOOKS_ALLOW_INSECURE, off here.
      ['http://127.0.0.1:8123/logout', 'insecure_endpoint'],
      ['https://rp.example/logout#x', 'invalid_request'],
      ['https://user:pw@rp.example/logout', 'invalid_request'],
      ['not a url', 'invalid_request'],
      [42, 'invalid_body'],
    ];
    for (const [value, error] of cases) {
      // Refused before any confirmation is asked for or spent.
      const res = await w.admin.request('patch', path()).send({ backchannelLogoutUri: value });
      expect([value, res.status, res.body.error]).toEqual([value, 400, error]);
      if (typeof value === 'string') {
        const started = await w.admin.request('post', '/api/console/confirmations').send({
          action: 'client_settings.update',
          applicationId: w.applicationId,
          settings: { backchannelLogoutUri: value },
        });
        expect([value, started.status, started.body.error]).toEqual([value, 400, error]);
      }
    }
    // The CLI refuses them alike.
    for (const [value, error] of cases.slice(0, 4)) {
      const res = await runInApp(t.app, [
        'app',
        'update',
        String(w.applicationId),
        '--backchannel-logout-uri',
        String(value),
        '--json',
      ]);
      expect(res.exitCode).toBe(1);
      expect((JSON.parse(res.stdout) as { error: string }).error).toBe(error);
    }
    expect(await stored()).toEqual({ uri: null, required: false });
  });

  it('sets the logout URI only with a passkey confirmation bound to it', async () => {
    const without = await w.admin.request('patch', path()).send({ backchannelLogoutUri: URI });
    expect(without.status).toBe(403);
    // A confirmation of another address does not set this one.
    const other = await w.admin
      .request('patch', path())
      .set(CONFIRMATION_HEADER, await confirmed('https://attacker.example/collect'))
      .send({ backchannelLogoutUri: URI });
    expect(other.status).toBe(403);
    expect(await stored()).toEqual({ uri: null, required: false });

    const set = await w.admin
      .request('patch', path())
      .set(CONFIRMATION_HEADER, await confirmed(URI))
      .send({ backchannelLogoutUri: URI, backchannelLogoutSessionRequired: true });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      backchannelLogoutUri: URI,
      backchannelLogoutSessionRequired: true,
    });
    expect(await stored()).toEqual({ uri: URI, required: true });
    // The same address again, the flag, or removing the address: no confirmation.
    await w.admin.request('patch', path()).send({ backchannelLogoutUri: URI }).expect(200);
    await w.admin
      .request('patch', path())
      .send({ backchannelLogoutSessionRequired: false })
      .expect(200);
    const removed = await w.admin
      .request('patch', path())
      .send({ backchannelLogoutUri: null })
      .expect(200);
    expect(removed.body.backchannelLogoutUri).toBeNull();
    expect(await stored()).toEqual({ uri: null, required: false });
    // A viewer sees none of it.
    const viewed = await w.viewer.request('get', path()).expect(200);
    expect(viewed.body).not.toHaveProperty('backchannelLogoutUri');

    expect(await audited()).toEqual([
      { action: 'application.update', details: { backchannelLogoutSessionRequired: true } },
      {
        action: 'application.backchannel_logout_uri.update',
        details: { backchannelLogoutUri: URI },
      },
      { action: 'application.update', details: { backchannelLogoutUri: URI } },
      { action: 'application.update', details: { backchannelLogoutSessionRequired: false } },
      { action: 'application.update', details: { backchannelLogoutUri: '' } },
    ]);
  });

  it('is set from the CLI, and removed with none', async () => {
    const set = await runInApp(t.app, [
      'app',
      'update',
      String(w.applicationId),
      '--backchannel-logout-uri',
      URI,
      '--backchannel-logout-session-required',
      'on',
      '--json',
    ]);
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      backchannelLogoutUri: URI,
      backchannelLogoutSessionRequired: true,
    });
    const removed = await runInApp(t.app, [
      'app',
      'update',
      String(w.applicationId),
      '--backchannel-logout-uri',
      'none',
      '--json',
    ]);
    expect(removed.exitCode).toBe(0);
    expect(await stored()).toEqual({ uri: null, required: true });
    const bad = await runInApp(t.app, [
      'app',
      'update',
      String(w.applicationId),
      '--backchannel-logout-session-required',
      'maybe',
    ]);
    expect(bad.exitCode).not.toBe(0);
  });
});
