import { runInApp } from '../../../factories';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * id_token_signed_response_alg of one application (OIDC Dynamic Client Registration 1.0
 * section 2): set in the console (no passkey confirmation) and in the CLI; RS256 by default.
 */
describe('The id_token signing alg of an application', () => {
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

  const appPath = (id = w.applicationId) => `/api/console/applications/${id}`;
  const storedAlg = async (id: number) =>
    (
      await t.dataSource.query<{ id_token_signed_response_alg: string | null }[]>(
        'SELECT id_token_signed_response_alg FROM applications WHERE id = $1',
        [id],
      )
    )[0].id_token_signed_response_alg;

  it('sets idTokenSignedResponseAlg at creation and in the settings, without a confirmation, audited', async () => {
    // An application that never named one: stored null, shown as the default.
    const detail = await w.admin.request('get', appPath()).expect(200);
    expect(detail.body).toMatchObject({ idTokenSignedResponseAlg: 'RS256' });
    expect(await storedAlg(w.applicationId)).toBeNull();
    const created = await w.owner
      .request('post', '/api/console/applications')
      .send({ name: 'FAPI App', idTokenSignedResponseAlg: 'PS256' });
    expect(created.status).toBe(201);
    const createdId = (created.body as { id: number }).id;
    expect(created.body).toMatchObject({ idTokenSignedResponseAlg: 'PS256' });
    expect(await storedAlg(createdId)).toBe('PS256');
    const changed = await w.admin
      .request('patch', appPath())
      .send({ idTokenSignedResponseAlg: 'EdDSA' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ idTokenSignedResponseAlg: 'EdDSA', clientSecret: null });
    expect(await storedAlg(w.applicationId)).toBe('EdDSA');
    const log = await w.owner.request('get', `${appPath()}/audit-log`).expect(200);
    expect(
      (log.body as { entries: { action: string; details: object }[] }).entries[0],
    ).toMatchObject({
      action: 'application.update',
      details: { idTokenSignedResponseAlg: 'EdDSA' },
    });
    // Back to the default by naming it.
    await w.admin
      .request('patch', appPath())
      .send({ idTokenSignedResponseAlg: 'RS256' })
      .expect(200);
    expect(await storedAlg(w.applicationId)).toBe('RS256');
  });

  it("refuses none, HMAC, other names and null with 400 invalid_body, and a viewer's change with 403", async () => {
    await w.admin
      .request('patch', appPath())
      .send({ idTokenSignedResponseAlg: 'ES256' })
      .expect(200);
    for (const value of ['none', 'HS256', 'RS384', 'ps256', 'Ed25519', '', null, 1, ['PS256']]) {
      const res = await w.admin
        .request('patch', appPath())
        .send({ idTokenSignedResponseAlg: value });
      expect([value, res.status]).toEqual([value, 400]);
      expect(res.body).toMatchObject({
        error: 'invalid_body',
        message: expect.stringContaining(
          'idTokenSignedResponseAlg must be one of RS256, PS256, ES256, EdDSA',
        ),
      });
    }
    const create = await w.owner
      .request('post', '/api/console/applications')
      .send({ name: 'Weak', idTokenSignedResponseAlg: 'HS256' });
    expect(create.status).toBe(400);
    expect((create.body as { error: string }).error).toBe('invalid_body');
    const viewer = await w.viewer
      .request('patch', appPath())
      .send({ idTokenSignedResponseAlg: 'RS256' });
    expect(viewer.status).toBe(403);
    const shown = await w.viewer.request('get', appPath()).expect(200);
    expect(shown.body).not.toHaveProperty('idTokenSignedResponseAlg');
    expect(await storedAlg(w.applicationId)).toBe('ES256');
    const [{ count }] = await t.dataSource.query<{ count: string }[]>(
      `SELECT count(*) FROM applications WHERE name = 'Weak'`,
    );
    expect(Number(count)).toBe(0);
  });

  it('sets it from the CLI with --id-token-alg and refuses another alg with invalid_request', async () => {
    const cli = (...argv: string[]) => runInApp(t.app, argv);
    const created = await cli(
      'app',
      'create',
      '--name',
      'Signed',
      '--redirect-uri',
      'https://client.example/cb',
      '--id-token-alg',
      'PS256',
      '--json',
    );
    expect(created.exitCode).toBe(0);
    const { id, idTokenSignedResponseAlg } = JSON.parse(created.stdout) as {
      id: number;
      idTokenSignedResponseAlg: string;
    };
    expect(idTokenSignedResponseAlg).toBe('PS256');
    expect(await storedAlg(id)).toBe('PS256');
    const updated = await cli('app', 'update', String(id), '--id-token-alg', 'ES256', '--json');
    expect(updated.exitCode).toBe(0);
    expect(JSON.parse(updated.stdout)).toEqual({
      id,
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
      deviceCodeGrant: false,
      securityProfile: 'none',
      idTokenSignedResponseAlg: 'ES256',
    });
    const list = JSON.parse((await cli('app', 'list', '--json')).stdout) as {
      items: { id: number; idTokenSignedResponseAlg: string }[];
    };
    expect(list.items.find((item) => item.id === id)).toMatchObject({
      idTokenSignedResponseAlg: 'ES256',
    });
    expect(list.items.find((item) => item.id === w.applicationId)).toMatchObject({
      idTokenSignedResponseAlg: 'RS256',
    });
    for (const bad of ['HS256', 'none', 'es256']) {
      const refused = await cli('app', 'update', String(id), '--id-token-alg', bad, '--json');
      expect(refused.exitCode).toBe(1);
      expect(JSON.parse(refused.stdout)).toEqual({
        error: 'invalid_request',
        message: 'id_token signing alg must be one of RS256, PS256, ES256, EdDSA',
      });
    }
    expect(await storedAlg(id)).toBe('ES256');
    const refusedCreate = await cli(
      'app',
      'create',
      '--name',
      'Unsigned',
      '--redirect-uri',
      'https://client.example/cb',
      '--id-token-alg',
      'none',
      '--json',
    );
    expect(refusedCreate.exitCode).toBe(1);
    expect(JSON.parse(refusedCreate.stdout)).toMatchObject({ error: 'invalid_request' });
    const [{ count }] = await t.dataSource.query<{ count: string }[]>(
      `SELECT count(*) FROM applications WHERE name = 'Unsigned'`,
    );
    expect(Number(count)).toBe(0);
  });
});
