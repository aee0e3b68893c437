import { ClearUnsafeApplicationUrls1795431000000 } from '../../../src/database/migrations/1795431000000-ClearUnsafeApplicationUrls';
import { AdminCommands } from '../../../src/cli/admin-commands';
import { createApiKey, createApplication } from '../../factories';
import { bearer } from '../../factories/app-users';
import { consoleWorld, type ConsoleWorld } from '../../support/console';
import { createTestApp, TestApp } from '../../support/test-app';

const REFUSED = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'http://shop.example/logo.png',
  'http://localhost.evil.example/',
  'ftp://shop.example/',
  'https:shop.example',
  '//shop.example/logo.png',
  'https://shop.example/\nlogo.png',
];
const ALLOWED = [
  'https://shop.example/logo.png',
  'http://localhost:8080/',
  'http://127.0.0.1/logo.png',
  'http://127.1.2.3:3000',
  'http://[::1]:8080/home',
];

/**
 * homeUrl and logo are shown to others (consent page, console, GET /api/v1/app/me): https, or
 * http on a loopback host, wherever they are written; values stored before that rule are
 * emptied by a migration (docs/security.md, "URLs shown to others").
 */
describe('application homeUrl and logo', () => {
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

  it.each(REFUSED)('refuses %j on console create and update (400)', async (url) => {
    // A control character is refused with every JSON field's invalid_body, before the URL rule.
    // eslint-disable-next-line no-control-regex -- the check is about control characters
    const control = /[\u0000-\u001f]/.test(url);
    const error = control ? 'invalid_body' : 'invalid_request';
    for (const field of ['homeUrl', 'logo']) {
      const created = await w.owner
        .request('post', '/api/console/applications')
        .send({ name: 'Shop', [field]: url });
      expect([field, created.status, created.body.error]).toEqual([field, 400, error]);
      const updated = await w.admin.request('patch', appPath()).send({ [field]: url });
      expect([field, updated.status, updated.body.error]).toEqual([field, 400, error]);
      if (!control) expect(updated.body.message).toContain(field);
    }
    const rows = await t.dataSource.query(
      "SELECT id FROM applications WHERE home_url <> '' OR logo <> ''",
    );
    expect(rows).toEqual([]);
  });

  it.each(ALLOWED)('accepts %j, and an empty value clears it', async (url) => {
    const res = await w.admin.request('patch', appPath()).send({ homeUrl: url, logo: url });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ homeUrl: url, logo: url });
    const cleared = await w.admin.request('patch', appPath()).send({ homeUrl: '', logo: '' });
    expect(cleared.body).toMatchObject({ homeUrl: '', logo: '' });
  });

  it('refuses them in the CLI (app create) with the same code', async () => {
    const create = t.app.get(AdminCommands).appCreate.bind(t.app.get(AdminCommands));
    await expect(
      create({ name: 'Cli', redirectUris: ['https://cli.example/cb'], logo: 'javascript:x' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('the migration empties stored values the rule refuses, and keeps the others', async () => {
    const { application } = await createApplication(t.app, { name: 'Old' });
    const key = await createApiKey(t.app, application.id, ['user:read']);
    const stored: [string, string][] = [
      ['javascript:alert(document.cookie)', 'https://old.example/logo.png'],
      ['http://127.0.0.1:3000/', 'data:image/svg+xml,<svg onload=alert(1)>'],
      [' https://old.example', 'http://old.example/logo.png'],
    ];
    const expected: [string, string][] = [
      ['', 'https://old.example/logo.png'],
      ['http://127.0.0.1:3000/', ''],
      ['', ''],
    ];
    for (const [i, [homeUrl, logo]] of stored.entries()) {
      // Written as an older version could, past today's rule.
      await t.dataSource.query('UPDATE applications SET home_url = $1, logo = $2 WHERE id = $3', [
        homeUrl,
        logo,
        application.id,
      ]);
      const runner = t.dataSource.createQueryRunner();
      try {
        await new ClearUnsafeApplicationUrls1795431000000().up(runner);
      } finally {
        await runner.release();
      }
      const me = await t
        .http()
        .get('/api/v1/app/me')
        .set(...bearer(key.plaintext));
      expect([i, me.body.app.homeUrl, me.body.app.logo]).toEqual([i, ...expected[i]]);
    }
  });
});
