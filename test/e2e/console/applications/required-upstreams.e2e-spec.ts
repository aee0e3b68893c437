import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { relate } from '../../../factories/app-users';
import { consoleSession, grantConsoleRole } from '../../../support/console';
import { authorizeParams, authorizePath, oauthSetup, pkce, query } from '../../../support/oauth';
import { createUser } from '../../../factories';
import { createTestApp, TestApp } from '../../../support/test-app';

/** The application setting requiredUpstreams through the console API (docs/upstreams.md). */
describe('Console: required upstreams setting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
  });

  async function setup() {
    const { application, user } = await oauthSetup(t.app);
    await t.app.get(UpstreamProvidersService).create({
      id: 'gh',
      displayName: 'GitHub',
      kind: 'github',
      clientId: 'client-gh',
      clientSecret: 'secret-gh',
      settings: {},
    });
    const [admin, viewer] = await Promise.all(
      ['admin', 'viewer'].map((name) =>
        createUser(t.app, { username: name, email: `${name}@example.org` }),
      ),
    );
    await relate(t, application.id, admin.id, { group: 'admin' });
    await relate(t, application.id, viewer.id, { group: 'viewer' });
    await grantConsoleRole(t, application.id, admin.id, 'admin');
    await grantConsoleRole(t, application.id, viewer.id, 'viewer');
    return {
      application,
      alice: user,
      admin: await consoleSession(t, admin.id),
      viewer: await consoleSession(t, viewer.id),
    };
  }

  it('lets an admin set it, refuses viewers and unknown providers, and shows it to admins only', async () => {
    const { application, admin, viewer } = await setup();
    const path = `/api/console/applications/${application.id}`;

    const set = await admin.request('patch', path).send({ requiredUpstreams: ['gh', 'gh'] });
    expect(set.status).toBe(200);
    expect(set.body.requiredUpstreams).toEqual(['gh']);
    expect((await admin.request('get', path)).body.requiredUpstreams).toEqual(['gh']);
    // Viewers see no settings of this kind, and cannot change them.
    expect((await viewer.request('get', path)).body).not.toHaveProperty('requiredUpstreams');
    const refused = await viewer.request('patch', path).send({ requiredUpstreams: [] });
    expect(refused.status).toBe(403);

    const unknown = await admin.request('patch', path).send({ requiredUpstreams: ['gh', 'nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_request');
    expect(unknown.body.message).toContain('nope');
    const notList = await admin.request('patch', path).send({ requiredUpstreams: 'gh' });
    expect(notList.status).toBe(400);
    expect(notList.body.error).toBe('invalid_body');
    const stored = await t.dataSource.query(
      'SELECT required_upstreams FROM applications WHERE id = $1',
      [application.id],
    );
    expect(stored).toEqual([{ required_upstreams: ['gh'] }]);

    const cleared = await admin.request('patch', path).send({ requiredUpstreams: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.requiredUpstreams).toEqual([]);
  });

  it('set through the API, makes prompt=none answer interaction_required for a user without the binding', async () => {
    const { application, alice, admin } = await setup();
    const silent = async () => {
      const signedIn = await consoleSession(t, alice.id);
      const res = await t
        .http()
        .get(
          authorizePath({
            ...authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
            prompt: 'none',
          }),
        )
        .set('Cookie', signedIn.cookie);
      expect(res.status).toBe(302);
      return query(res.headers.location);
    };
    // Without the setting the silent answer is about consent only.
    expect((await silent()).error).toBe('consent_required');
    const set = await admin
      .request('patch', `/api/console/applications/${application.id}`)
      .send({ requiredUpstreams: ['gh'] });
    expect(set.status).toBe(200);
    const refused = await silent();
    expect(refused.error).toBe('interaction_required');
    expect(refused.error_description).toContain('gh');
  });
});
