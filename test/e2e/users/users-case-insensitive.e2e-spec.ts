import { DataSource } from 'typeorm';
import { AppError } from '../../../src/common/errors/app-error';
import { dataSourceOptions } from '../../../src/database/data-source';
import { MIGRATIONS } from '../../../src/database/migrations';
import { CaseInsensitiveUserNames1795360000000 as CaseInsensitive } from '../../../src/database/migrations/1795360000000-CaseInsensitiveUserNames';
import { createApiKey, createUser, runInApp } from '../../factories';
import { bearer, relate } from '../../factories/app-users';
import { browser, login, oauthSetup, pkce } from '../../support/oauth';
import { scratchDatabase, ScratchDatabase } from '../../support/scratch-database';
import { createTestApp, TestApp } from '../../support/test-app';

describe('usernames and emails are unique regardless of case', () => {
  let t: TestApp;
  const cli = (...argv: string[]) => runInApp(t.app, argv);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('refuses "Alice" after "alice" with 409 conflict and keeps the case typed at creation', async () => {
    const first = await cli('user', 'create', '--username', 'Alice', '--email', 'a@example.org');
    expect(first.exitCode).toBe(0);
    const again = await cli(
      'user',
      'create',
      '--username',
      'aLICE',
      '--email',
      'other@example.org',
      '--json',
    );
    expect(again.exitCode).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: 'conflict',
      message: 'username or email already in use',
    });

    const viaService = await createUser(t.app, { username: 'alice', email: 'b@example.org' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(viaService).toBeInstanceOf(AppError);
    expect(viaService).toMatchObject({ status: 409, code: 'conflict' });

    const rows = await t.dataSource.query('SELECT username, email FROM users');
    expect(rows).toEqual([{ username: 'Alice', email: 'a@example.org' }]);
  });

  it('refuses an email taken in another case, in users and in user_emails', async () => {
    await createUser(t.app, { username: 'carol', email: 'carol@example.org' });
    const conflict = await createUser(t.app, { username: 'carol2', email: 'CAROL@Example.ORG' })
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(conflict).toMatchObject({ status: 409, code: 'conflict' });
    // Rows written without the service (which lower-cases) are covered by the indexes too.
    await expect(
      t.dataSource.query(
        `INSERT INTO user_emails (user_id, email) VALUES (1, 'Carol@Example.org')`,
      ),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
  });

  it('signs in with the username or the email in any case', async () => {
    const { application } = await oauthSetup(t.app, { username: 'Alice' });
    for (const username of ['ALICE', 'alice', 'ALICE@EXAMPLE.ORG']) {
      const agent = browser(t.app);
      const res = await login(agent, {
        clientId: application.clientId,
        challenge: pkce().challenge,
        username,
      });
      expect([username, res.status]).toEqual([username, 303]);
      // The consent page names the account as it was created.
      const consent = await agent.get(res.headers.location);
      expect(consent.text).toContain('<strong>Alice</strong>');
    }
  });

  it('still finds users by keyword in any case (GET /users)', async () => {
    const { application, user } = await oauthSetup(t.app, { username: 'Alice' });
    await relate(t, application.id, user.id);
    const { plaintext } = await createApiKey(t.app, application.id, ['user:read']);
    const res = await t
      .http()
      .get('/api/v1/app/users?keyword=aLiC')
      .set(...bearer(plaintext));
    expect(res.status).toBe(200);
    expect(res.body.items.map((u: { username: string }) => u.username)).toEqual(['Alice']);
  });
});

// The migrations that come before CaseInsensitiveUserNames, and it with the ones after it
// (TypeORM orders them by the timestamp that ends each name).
const timestamp = (m: (typeof MIGRATIONS)[number]) => Number(new m().name.slice(-13));
const BEFORE = MIGRATIONS.filter((m) => timestamp(m) < timestamp(CaseInsensitive));
const FROM_IT = MIGRATIONS.filter((m) => !BEFORE.includes(m));

describe('migration CaseInsensitiveUserNames on a database with collisions', () => {
  let db: ScratchDatabase;
  let dataSource: DataSource | undefined;
  beforeEach(async () => {
    db = await scratchDatabase();
  });
  afterEach(async () => {
    await dataSource?.destroy();
    await db.drop();
  });

  it('stops, changes nothing and lists every collision; runs once they are resolved', async () => {
    // One DataSource throughout: the embedded database serves one connection at a time, and a
    // second one could arrive before the first one's close is noticed.
    dataSource = await new DataSource({
      ...dataSourceOptions(db.target),
      migrations: BEFORE,
      // The failure is the test's subject: keep it out of the log (the debug logger is silent
      // unless DEBUG=typeorm:*).
      logger: 'debug',
      logging: false,
    }).initialize();
    await dataSource.runMigrations();
    await dataSource.query(
      `INSERT INTO users (username, email) VALUES ('alice', 'a1@example.org'),
         ('Alice', 'a2@example.org'), ('bob', 'bob@example.org'), ('bobby', 'BOB@example.org')`,
    );
    await dataSource.query(
      `INSERT INTO user_emails (user_id, email) VALUES (3, 'bob@example.org'), (4, 'BOB@example.org')`,
    );

    // The release that brings the migration.
    dataSource.migrations.push(...FROM_IT.map((m) => new m()));
    const next = dataSource;
    const failure = await next.runMigrations().then(
      () => new Error('the migration ran'),
      (error: Error) => error,
    );
    expect(failure.message).toBe(
      [
        'Migration CaseInsensitiveUserNames1795360000000 stopped, nothing was changed: usernames ' +
          'and emails are now unique regardless of case, and 3 value(s) are held by several rows ' +
          'that differ only by case:',
        `  email "bob@example.org": user 3 'bob@example.org', user 4 'BOB@example.org'`,
        `  user_emails.email "bob@example.org": row 1 of user 3 'bob@example.org', row 2 of user 4 'BOB@example.org'`,
        `  username "alice": user 1 'alice', user 2 'Alice'`,
        "Resolve each one by renaming or deleting all but one of the rows (for example UPDATE users SET username = 'alice2' WHERE id = 2; an email also lives in user_emails), then run the migrations again.",
      ].join('\n'),
    );
    expect(await next.showMigrations()).toBe(true); // still pending
    const indexes = await next.query(
      `SELECT indexname FROM pg_indexes WHERE indexname LIKE 'uq_user%' ORDER BY 1`,
    );
    expect(indexes.map((r: { indexname: string }) => r.indexname)).toEqual([
      'uq_user_emails_email',
      'uq_users_email',
      'uq_users_username',
    ]);

    await next.query(`UPDATE users SET username = 'alice2' WHERE id = 2`);
    await next.query(`UPDATE users SET email = 'bobby@example.org' WHERE id = 4`);
    await next.query(`UPDATE user_emails SET email = 'bobby@example.org' WHERE id = 2`);
    await next.runMigrations();
    await expect(
      next.query(`INSERT INTO users (username, email) VALUES ('ALICE', 'a3@example.org')`),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
  });
});
