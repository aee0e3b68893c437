import { expectStatus, oauthSetup } from '../../../support/oauth';
import { authorizeWithRequestUri, push, pushedForm } from '../../../support/par';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';

/**
 * Pushed requests live in PostgreSQL: a request_uri pushed to one instance is taken at another,
 * once. Two instances on one database exist only with DATABASE_URL (the embedded database
 * belongs to one process); there the one instance plays both.
 */
describe('Pushed authorization requests across two instances', () => {
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

  it('takes at one instance a request_uri pushed to the other, once', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const pushed = await push(t, pushedForm(application.clientId).form);
    expectStatus(pushed, 201);
    const { request_uri: requestUri } = pushed.body as { request_uri: string };
    const path = authorizeWithRequestUri(application.clientId, requestUri);
    const taken = await other.http().get(path);
    expectStatus(taken, 302);
    expect(taken.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    for (const instance of [t, other]) {
      const replay = await instance.http().get(path);
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('Invalid request_uri');
    }
  });

  it('lets exactly one of concurrent uses on both instances through', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const pushed = await push(other, pushedForm(application.clientId).form);
    expectStatus(pushed, 201);
    const { request_uri: requestUri } = pushed.body as { request_uri: string };
    const path = authorizeWithRequestUri(application.clientId, requestUri);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? t : other).http().get(path)),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([302, ...Array(9).fill(400)]);
  });
});
