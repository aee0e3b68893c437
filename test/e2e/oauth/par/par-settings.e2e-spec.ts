import { runInApp } from '../../../factories';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { expectStatus, query } from '../../../support/oauth';
import { pushedForm } from '../../../support/par';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * require_pushed_authorization_requests of one application (RFC 9126 section 5): set in the
 * console (no passkey confirmation: it only narrows how the client may start) and in the CLI.
 */
describe('Requiring pushed authorization requests per application', () => {
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
  const clientIdOf = async (id: number) =>
    (
      await t.dataSource.query<{ client_id: string }[]>(
        'SELECT client_id FROM applications WHERE id = $1',
        [id],
      )
    )[0].client_id;
  const directAuthorize = async (clientId: string) => {
    const form = pushedForm(clientId).form;
    return t.http().get(`/oauth2/authorize?${new URLSearchParams(form).toString()}`);
  };

  it('lets an admin require PAR in the console without a confirmation, audited, and /authorize follows', async () => {
    const detail = await w.admin.request('get', appPath()).expect(200);
    expect(detail.body).toMatchObject({ requirePushedAuthorizationRequests: false });
    const res = await w.admin
      .request('patch', appPath())
      .send({ requirePushedAuthorizationRequests: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      requirePushedAuthorizationRequests: true,
      clientSecret: null,
    });
    const clientId = await clientIdOf(w.applicationId);
    const refused = await directAuthorize(clientId);
    expectStatus(refused, 302);
    expect(query(refused.headers.location).error).toBe('invalid_request');
    const log = await w.owner.request('get', `${appPath()}/audit-log`).expect(200);
    expect(
      (log.body as { entries: { action: string; details: object }[] }).entries[0],
    ).toMatchObject({
      action: 'application.update',
      details: { requirePushedAuthorizationRequests: true },
    });
    // Turned off again, the direct request is served as before.
    await w.admin
      .request('patch', appPath())
      .send({ requirePushedAuthorizationRequests: false })
      .expect(200);
    const served = await directAuthorize(clientId);
    expectStatus(served, 302);
    expect(served.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('keeps the setting from a viewer and refuses a value that is not a boolean', async () => {
    const viewer = await w.viewer
      .request('patch', appPath())
      .send({ requirePushedAuthorizationRequests: true });
    expect(viewer.status).toBe(403);
    const detail = await w.viewer.request('get', appPath()).expect(200);
    expect(detail.body).not.toHaveProperty('requirePushedAuthorizationRequests');
    const bad = await w.admin
      .request('patch', appPath())
      .send({ requirePushedAuthorizationRequests: 'yes' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toBe('invalid_body');
  });

  it('sets it from the CLI: app create --require-par and app update --require-par', async () => {
    const cli = (...argv: string[]) => runInApp(t.app, argv);
    const created = await cli(
      'app',
      'create',
      '--name',
      'Pushed',
      '--redirect-uri',
      'https://client.example/cb',
      '--auth-method',
      'none',
      '--require-par',
      'on',
      '--json',
    );
    expect(created.exitCode).toBe(0);
    const { id, clientId } = JSON.parse(created.stdout) as { id: number; clientId: string };
    const list = JSON.parse((await cli('app', 'list', '--json')).stdout) as {
      items: { id: number; requirePushedAuthorizationRequests: boolean }[];
    };
    expect(list.items.find((item) => item.id === id)).toMatchObject({
      requirePushedAuthorizationRequests: true,
    });
    expect(query((await directAuthorize(clientId)).headers.location).error).toBe('invalid_request');
    const off = await cli('app', 'update', String(id), '--require-par', 'off', '--json');
    expect(off.exitCode).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({
      id,
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
      deviceCodeGrant: false,
      securityProfile: 'none',
      idTokenSignedResponseAlg: 'RS256',
    });
    expect((await directAuthorize(clientId)).headers.location).toMatch(/^\/oauth2\/login/);
    const bad = await cli('app', 'update', String(id), '--require-par', 'maybe', '--json');
    expect(bad.exitCode).not.toBe(0);
    const missing = await cli('app', 'update', String(id), '--json');
    expect(missing.exitCode).not.toBe(0);
  });
});
