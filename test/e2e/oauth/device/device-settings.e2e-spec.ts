import { runInApp } from '../../../factories';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { deviceAuthorization } from '../../../support/device';
import { basic } from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * device_code_grant of one application (RFC 8628; docs/oauth.md, "Device authorization grant"):
 * off by default, set in the console (audited, no passkey confirmation) and in the CLI; the
 * device authorization endpoint follows.
 */
describe('Registering a client for the device authorization grant', () => {
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

  const startAs = (clientId: string, secret: string) =>
    t
      .http()
      .post('/oauth2/device_authorization')
      .type('form')
      .set('Authorization', basic(clientId, secret))
      .send({ scope: 'read' });

  it('lets an admin enable it in the console, audited, and the endpoint follows', async () => {
    const detail = await w.admin.request('get', appPath()).expect(200);
    expect(detail.body).toMatchObject({ deviceCodeGrant: false });
    const { clientId } = detail.body as { clientId: string };
    expect((await startAs(clientId, w.clientSecret)).body.error).toBe('unauthorized_client');

    const res = await w.admin.request('patch', appPath()).send({ deviceCodeGrant: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deviceCodeGrant: true, clientSecret: null });
    expect((await startAs(clientId, w.clientSecret)).status).toBe(200);

    const log = await w.owner.request('get', `${appPath()}/audit-log`).expect(200);
    expect(
      (log.body as { entries: { action: string; details: object }[] }).entries[0],
    ).toMatchObject({ action: 'application.update', details: { deviceCodeGrant: true } });
    const viewer = await w.viewer.request('patch', appPath()).send({ deviceCodeGrant: false });
    expect(viewer.status).toBe(403);
    const bad = await w.admin.request('patch', appPath()).send({ deviceCodeGrant: 'yes' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toBe('invalid_body');
  });

  it('sets it from the CLI: app create --device-code-grant and app update --device-code-grant', async () => {
    const cli = (...argv: string[]) => runInApp(t.app, argv);
    const created = await cli(
      'app',
      'create',
      '--name',
      'TV',
      '--redirect-uri',
      'https://client.example/cb',
      '--auth-method',
      'none',
      '--device-code-grant',
      'on',
      '--json',
    );
    expect(created.exitCode).toBe(0);
    const { id, clientId } = JSON.parse(created.stdout) as { id: number; clientId: string };
    const list = JSON.parse((await cli('app', 'list', '--json')).stdout) as {
      items: { id: number; deviceCodeGrant: boolean }[];
    };
    expect(list.items.find((item) => item.id === id)).toMatchObject({ deviceCodeGrant: true });
    expect((await deviceAuthorization(t.app, clientId)).status).toBe(200);

    const off = await cli('app', 'update', String(id), '--device-code-grant', 'off', '--json');
    expect(off.exitCode).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ id, deviceCodeGrant: false });
    expect((await deviceAuthorization(t.app, clientId)).body.error).toBe('unauthorized_client');
    const bad = await cli('app', 'update', String(id), '--device-code-grant', 'maybe', '--json');
    expect(bad.exitCode).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toContain('--device-code-grant must be on or off');
  });

  it("shows the setting in the console's Settings tab, in English and Chinese", async () => {
    const en = await w.admin.request('get', `/console/applications/${w.applicationId}`);
    expect(en.text).toContain('name="deviceCodeGrant"');
    expect(en.text).toContain('Device authorization grant');
    const zh = await w.admin
      .request('get', `/console/applications/${w.applicationId}`)
      .set('Accept-Language', 'zh-CN');
    expect(zh.text).toContain('设备授权许可');
  });
});
