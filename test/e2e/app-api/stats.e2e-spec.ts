import { createApiKey, createUser } from '../../factories';
import { bearer, relate, twoApplications } from '../../factories/app-users';
import { createTestApp, TestApp } from '../../support/test-app';

const NOW = new Date('2031-06-15T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/** GET /stats (docs/contract/stats.md; definitions in docs/stats.md). */
describe('application API: stats', () => {
  let t: TestApp;
  let appA: number;
  let appB: number;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(NOW);
    ({ appA, appB, keyA, keyB } = await twoApplications(t, ['stats:read']));
  });

  const stats = (key: string) =>
    t
      .http()
      .get('/api/v1/app/stats')
      .set(...bearer(key));
  const granted = (app: number, at: Date, type = 'authorization_granted') =>
    t.dataSource.query(
      `INSERT INTO events (application_id, event_type, user_id, created_at) VALUES ($1, $2, 1, $3)`,
      [app, type, at],
    );

  it('reports zeros and 30 zero days for an application without users', async () => {
    const res = await stats(keyA);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalUsers: 0,
      totalAuths: 0,
      activeUsers30d: 0,
      newUsers30d: 0,
    });
    expect(res.body.dailyAuthCounts).toHaveLength(30);
    expect(res.body.dailyAuthCounts[0]).toEqual({ date: '2031-06-15', count: 0 });
    expect(res.body.dailyAuthCounts[29]).toEqual({ date: '2031-05-17', count: 0 });
  });

  it('computes every figure exactly on a constructed dataset', async () => {
    const users = [];
    for (let i = 0; i < 5; i += 1) users.push((await createUser(t.app)).id);
    // first/last authorization: boundaries at exactly now − 30 days count as inside.
    await relate(t, appA, users[0], {
      authCount: 4,
      firstAuthAt: ago(60 * DAY),
      lastAuthAt: ago(DAY),
    });
    await relate(t, appA, users[1], {
      authCount: 2,
      firstAuthAt: ago(30 * DAY),
      lastAuthAt: ago(30 * DAY),
    });
    await relate(t, appA, users[2], {
      authCount: 1,
      firstAuthAt: ago(30 * DAY + 1),
      lastAuthAt: ago(30 * DAY + 1),
    });
    await relate(t, appA, users[3], {
      authCount: 0,
      firstAuthAt: null,
      lastAuthAt: null,
      enabled: false,
    });
    await relate(t, appB, users[4], { authCount: 9, firstAuthAt: ago(DAY), lastAuthAt: ago(DAY) });

    await granted(appA, new Date('2031-06-15T00:00:00.000Z')); // today, first instant
    await granted(appA, new Date('2031-06-15T09:59:59.000Z'));
    await granted(appA, new Date('2031-06-14T23:59:59.999Z')); // yesterday
    await granted(appA, new Date('2031-05-17T00:00:00.000Z')); // oldest day of the window
    await granted(appA, new Date('2031-05-16T23:59:59.999Z')); // outside the window
    await granted(appA, new Date('2031-06-15T05:00:00.000Z'), 'token_issued'); // other type
    await granted(appB, new Date('2031-06-15T05:00:00.000Z')); // other application

    const res = await stats(keyA);
    expect(res.status).toBe(200);
    const expectedDays = Array.from({ length: 30 }, (_, i) => ({
      date: new Date(Date.UTC(2031, 5, 15 - i)).toISOString().slice(0, 10),
      count: i === 0 ? 2 : i === 1 ? 1 : i === 29 ? 1 : 0,
    }));
    expect(res.body).toEqual({
      totalUsers: 4,
      totalAuths: 7,
      activeUsers30d: 2,
      newUsers30d: 1,
      dailyAuthCounts: expectedDays,
    });
    expect(res.body.dailyAuthCounts[29].date).toBe('2031-05-17');

    const b = await stats(keyB);
    expect(b.body).toMatchObject({
      totalUsers: 1,
      totalAuths: 9,
      activeUsers30d: 1,
      newUsers30d: 1,
    });
    expect(b.body.dailyAuthCounts[0]).toEqual({ date: '2031-06-15', count: 1 });
  });

  it('moves the window with the clock, in UTC days', async () => {
    await granted(appA, new Date('2031-06-15T23:30:00.000Z'));
    t.clock.set(new Date('2031-06-16T00:30:00.000Z'));
    const res = await stats(keyA);
    expect(res.body.dailyAuthCounts.slice(0, 2)).toEqual([
      { date: '2031-06-16', count: 0 },
      { date: '2031-06-15', count: 1 },
    ]);
  });

  it('needs stats:read', async () => {
    const { plaintext } = await createApiKey(t.app, appA, ['user:read']);
    const res = await stats(plaintext);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'insufficient_scope',
      message: expect.any(String),
      required_any_of: ['stats:read'],
      granted_scopes: ['user:read'],
    });
  });
});
