import { createApiKey, createApplication, createUser, runInApp } from '../../factories';
import { bearer } from '../../factories/app-users';
import { createTestApp, TestApp } from '../../support/test-app';

const NOW = new Date('2031-06-15T10:00:00.000Z');

/** `identity-cli seed` (docs/seed.md), run through the CLI dispatcher against the whole app. */
describe('CLI seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(NOW);
  });

  const cli = (argv: string[]) => runInApp(t.app, argv);

  it('creates N related users with emails, groups, flags, auth counts and matching events', async () => {
    const { application } = await createApplication(t.app);
    const out = await cli([
      'seed',
      '--app',
      String(application.id),
      '--users',
      '30',
      '--days',
      '10',
      '--json',
    ]);
    expect(out.exitCode).toBe(0);
    const result = JSON.parse(out.stdout);
    // n = 1..30: k = 1 + n % 3 authorizations each → 10 × (2 + 3 + 1) = 60 events;
    // groups: n % 100 < 5 viewer (n = 1..4), else t(n % 6); every tenth user disabled.
    // Names and domains are fixed functions of n (hashes), the same on every database.
    expect(result).toMatchObject({
      applicationId: application.id,
      users: 30,
      skipped: 0,
      events: 60,
      firstUsername: 'lucas1',
      days: 10,
      batches: 1,
    });
    expect(typeof result.durationMs).toBe('number');

    const [counts] = await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM app_users WHERE application_id = $1) AS relations,
              (SELECT count(*)::int FROM user_emails e JOIN app_users au ON au.user_id = e.user_id
                 WHERE au.application_id = $1 AND e."primary") AS emails,
              (SELECT sum(auth_count)::int FROM app_users WHERE application_id = $1) AS auths,
              (SELECT count(*)::int FROM app_users WHERE application_id = $1 AND NOT enabled) AS disabled,
              (SELECT count(DISTINCT "group")::int FROM app_users WHERE application_id = $1) AS groups,
              (SELECT min(created_at) FROM events WHERE application_id = $1) AS oldest,
              (SELECT max(created_at) FROM events WHERE application_id = $1) AS newest`,
      [application.id],
    );
    expect(counts).toMatchObject({ relations: 30, emails: 30, auths: 60, disabled: 3, groups: 7 });
    expect(counts.oldest.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 10 * 86_400_000);
    expect(counts.newest.getTime()).toBeLessThan(NOW.getTime());

    const { plaintext } = await createApiKey(t.app, application.id, ['user:read', 'stats:read']);
    const list = await t
      .http()
      .get('/api/v1/app/users?pageSize=1')
      .set(...bearer(plaintext));
    expect(list.body.total).toBe(30);
    expect(list.body.items[0]).toMatchObject({
      username: 'lucas1',
      email: 'lroux1@example.com',
      nickname: 'Lucas Roux',
      avatar: 'https://avatars.example/seed/1.png',
      authCount: 2,
      group: 'viewer',
      enabled: true,
    });
    const stats = await t
      .http()
      .get('/api/v1/app/stats')
      .set(...bearer(plaintext));
    expect(stats.body).toMatchObject({
      totalUsers: 30,
      totalAuths: 60,
      activeUsers30d: 30,
      newUsers30d: 30,
    });
    const daily = stats.body.dailyAuthCounts.reduce(
      (sum: number, d: { count: number }) => sum + d.count,
      0,
    );
    expect(daily).toBe(60);
  });

  it('continues the numbering on a second run and keeps applications apart', async () => {
    const a = (await createApplication(t.app)).application.id;
    const b = (await createApplication(t.app)).application.id;
    await cli(['seed', '--app', String(a), '--users', '5', '--json']);
    const again = JSON.parse(
      (await cli(['seed', '--app', String(a), '--users', '5', '--json'])).stdout,
    );
    expect(again.firstUsername).toBe('ferrari.ciaran6');
    // Numbers are unique across applications: b's users are n = 11 and 12.
    const other = JSON.parse(
      (await cli(['seed', '--app', String(b), '--users', '2', '--json'])).stdout,
    );
    expect(other.firstUsername).toBe('morrisa11');
    const rows = await t.dataSource.query(
      `SELECT application_id, count(*)::int AS n FROM app_users GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { application_id: a, n: 10 },
      { application_id: b, n: 2 },
    ]);
  });

  it('skips a generated user whose username is already taken, with its relation', async () => {
    const { application } = await createApplication(t.app);
    // n = 4 would be robert_walker4.
    const taken = await createUser(t.app, { username: 'robert_walker4' });
    const out = JSON.parse(
      (await cli(['seed', '--app', String(application.id), '--users', '5', '--json'])).stdout,
    );
    expect(out).toMatchObject({ users: 4, skipped: 1, events: 2 + 3 + 1 + 3 });
    const [row] = await t.dataSource.query(
      `SELECT count(*)::int AS relations, count(*) FILTER (WHERE user_id = $2)::int AS real
         FROM app_users WHERE application_id = $1`,
      [application.id, taken.id],
    );
    expect(row).toEqual({ relations: 4, real: 0 });
  });

  it('rejects bad arguments and unknown applications', async () => {
    expect(JSON.parse((await cli(['seed', '--users', '5', '--json'])).stdout).error).toBe('usage');
    expect((await cli(['seed', '--app', '1', '--users', '0', '--json'])).exitCode).toBe(2);
    expect(
      (await cli(['seed', '--app', '1', '--users', '5', '--days', '0', '--json'])).exitCode,
    ).toBe(2);
    const missing = await cli(['seed', '--app', '999', '--users', '5', '--json']);
    expect(missing.exitCode).toBe(1);
    expect(JSON.parse(missing.stdout).error).toBe('not_found');
  });
});
