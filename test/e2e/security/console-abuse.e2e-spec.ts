import { consoleWorld, type ConsoleWorld } from '../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../support/passkeys';
import type { SoftwareAuthenticator } from '../../support/software-authenticator';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Abuse cases", console: the application cannot be left without its owner,
 * and only the owner deletes it.
 */
describe('console abuse cases', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let ownerKey: SoftwareAuthenticator;
  let adminKey: SoftwareAuthenticator;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
    ownerKey = newAuthenticator();
    adminKey = newAuthenticator();
    await registerPasskey(w.owner, ownerKey);
    await registerPasskey(w.admin, adminKey);
  });

  const appPath = (suffix = '') => `/api/console/applications/${w.applicationId}${suffix}`;

  it('withdraws no access from the owner: the member routes refuse it, and no confirmation is had for it', async () => {
    const ownerPath = appPath(`/members/${w.owner.userId}`);
    const answers: unknown[] = [];
    for (const client of [w.owner, w.admin]) {
      const res = await client.request('delete', ownerPath);
      answers.push(['delete', client.userId, res.status, res.body.error]);
      const started = await client.request('post', '/api/console/confirmations').send({
        action: 'console_role.revoke',
        applicationId: w.applicationId,
        targetUserId: w.owner.userId,
        role: 'admin',
      });
      answers.push(['confirm', client.userId, started.status, started.body.error]);
    }
    expect(answers).toEqual([
      ['delete', w.owner.userId, 409, 'conflict'],
      ['confirm', w.owner.userId, 409, 'conflict'],
      ['delete', w.admin.userId, 409, 'conflict'],
      ['confirm', w.admin.userId, 409, 'conflict'],
    ]);
    const owner = await w.owner.request('get', appPath());
    expect([owner.status, owner.body.role]).toEqual([200, 'owner']);
    const [{ owner_id }] = await t.dataSource.query(
      'SELECT owner_id FROM applications WHERE id = $1',
      [w.applicationId],
    );
    expect(String(owner_id)).toBe(w.owner.userId);
  });

  it('lets no admin delete the application, even with a confirmation of their own', async () => {
    const started = await w.admin.request('post', '/api/console/confirmations').send({
      action: 'application.delete',
      applicationId: w.applicationId,
    });
    expect(started.status).toBe(403);
    const token = await confirmationToken(w.owner, ownerKey, {
      action: 'application.delete',
      applicationId: w.applicationId,
    });
    // The owner's token in the admin's request is another user's token.
    const res = await w.admin.request('delete', appPath()).set(CONFIRMATION_HEADER, token);
    expect(res.status).toBe(403);
    expect((await w.owner.request('get', appPath())).status).toBe(200);
  });
});
