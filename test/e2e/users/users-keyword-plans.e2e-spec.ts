import { SeedService } from '../../../src/modules/users/seed.service';
import { bearer, twoApplications } from '../../factories/app-users';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * GET /users?keyword= answers from several statements chosen per query (a bounded walk in user
 * id order for dense keywords on near pages, the trigram bitmap otherwise; docs/
 * performance/users.md). Whatever the plan, page and total are those of the definition
 * (docs/users-api.md): case-insensitive substring of username or email, user id order.
 */
describe('application API: users keyword, every plan', () => {
  let t: TestApp;
  let appA: number;
  let keyA: string;
  // More relations than the walk reads (WALK_BUDGET, 2,000), and more late matches than the
  // count that makes a keyword dense (WALK_MIN_TOTAL, 1,000): see late() below.
  const SEEDED = 3_200;
  const LATE = 1_100;

  beforeAll(async () => {
    t = await createTestApp();
    await t.truncate();
    ({ appA, keyA } = await twoApplications(t, ['user:read']));
    await t.app.get(SeedService).seed(appA, SEEDED, 30);
    // The last LATE users get an email no earlier one has (the trigger updates the search key).
    await t.dataSource.query(
      `UPDATE users SET email = 'zz-late' || id || '@late.test'
        WHERE id IN (SELECT user_id FROM app_users WHERE application_id = $1
                      ORDER BY user_id DESC LIMIT $2)`,
      [appA, LATE],
    );
  });
  afterAll(() => t.close());

  const list = async (query: string) => {
    const res = await t
      .http()
      .get(`/api/v1/app/users?${query}`)
      .set(...bearer(keyA));
    expect(res.status).toBe(200);
    return res.body as { items: { userId: string }[]; total: number };
  };

  /** The definition, straight from the users table. */
  async function expected(keyword: string): Promise<string[]> {
    const rows = await t.dataSource.query<{ id: string }[]>(
      `SELECT u.id::text AS id FROM app_users au JOIN users u ON u.id = au.user_id
        WHERE au.application_id = $1
          AND (strpos(lower(u.username), $2) > 0 OR strpos(lower(u.email), $2) > 0)
        ORDER BY u.id`,
      [appA, keyword.toLowerCase()],
    );
    return rows.map((r) => r.id);
  }

  async function lastUsername(): Promise<string> {
    const [row] = await t.dataSource.query<{ username: string }[]>(
      `SELECT u.username FROM app_users au JOIN users u ON u.id = au.user_id
        WHERE au.application_id = $1 ORDER BY u.id DESC LIMIT 1`,
      [appA],
    );
    return row.username;
  }

  it.each([
    ['every user (dense)', '@'],
    ['a quarter of the users (dense)', 'EXAMPLE.ORG'],
    ['a few users (sparse)', '77'],
    ['many users, none among the first 2,000 (dense, past the walk)', 'ZZ-LATE'],
  ])('matches the definition for %s on near, far and past-the-end pages', async (_, keyword) => {
    const all = await expected(keyword);
    expect(all.length).toBeGreaterThan(0);
    const pages = [1, 2, 10, 11, Math.ceil(all.length / 20), Math.ceil(all.length / 20) + 1];
    for (const page of pages) {
      const body = await list(`keyword=${encodeURIComponent(keyword)}&page=${page}`);
      expect(body.total).toBe(all.length);
      expect(body.items.map((u) => u.userId)).toEqual(all.slice((page - 1) * 20, page * 20));
    }
  });

  it('finds a single match among the last relations', async () => {
    const username = await lastUsername();
    const all = await expected(username);
    expect(all).toHaveLength(1);
    const body = await list(`keyword=${encodeURIComponent(username.toUpperCase())}`);
    expect(body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(body.items.map((u) => u.userId)).toEqual(all);
  });
});
