import { createApiKey, createUser } from '../../factories';
import { bearer, relate, twoApplications } from '../../factories/app-users';
import { createTestApp, TestApp } from '../../support/test-app';

/** GET /users and GET /users/:userId (docs/contract/users.md; docs/users-api.md). */
describe('application API: users', () => {
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
    ({ appA, appB, keyA, keyB } = await twoApplications(t, ['user:read']));
  });

  const list = (key: string, query = '') =>
    t
      .http()
      .get(`/api/v1/app/users${query}`)
      .set(...bearer(key));

  /** n users related to app A (and every third also to B), in creation (= id) order. */
  async function seedUsers(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 1; i <= n; i += 1) {
      const user = await createUser(t.app, {
        username: `member${String(i).padStart(2, '0')}`,
        email: `m${i}@example.org`,
      });
      await relate(t, appA, user.id, { group: i % 2 === 0 ? 't1' : 't0', enabled: i % 5 !== 0 });
      if (i % 3 === 0) await relate(t, appB, user.id);
      ids.push(user.id);
    }
    return ids;
  }

  it('returns the user view with every field of the contract (docs/contract/users.md#user-view)', async () => {
    const user = await createUser(t.app, {
      username: 'alice',
      email: 'Alice@Example.org',
      nickname: 'Al',
      emailVerified: true,
    });
    await t.dataSource.query(
      `UPDATE users SET avatar = 'https://img.example/a.png', last_login_at = '2030-01-02T03:04:05Z', created_at = '2030-01-01T00:00:00Z' WHERE id = $1`,
      [user.id],
    );
    await relate(t, appA, user.id, {
      group: 't3',
      authCount: 7,
      firstAuthAt: new Date('2030-01-01T10:00:00Z'),
      lastAuthAt: new Date('2030-01-05T10:00:00.123Z'),
    });
    const expected = {
      userId: user.id,
      username: 'alice',
      email: 'alice@example.org',
      nickname: 'Al',
      avatar: 'https://img.example/a.png',
      emailVerified: true,
      group: 't3',
      enabled: true,
      authCount: 7,
      firstAuthAt: '2030-01-01T10:00:00.000Z',
      lastAuthAt: '2030-01-05T10:00:00.123Z',
      lastLoginAt: '2030-01-02T03:04:05.000Z',
      createdAt: '2030-01-01T00:00:00.000Z',
    };
    const page = await list(keyA);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ items: [expected], total: 1, page: 1, pageSize: 20 });
    const one = await t
      .http()
      .get(`/api/v1/app/users/${user.id}`)
      .set(...bearer(keyA));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(expected);
  });

  it('reports null for times that have not happened', async () => {
    const user = await createUser(t.app);
    await relate(t, appA, user.id, { authCount: 0 });
    const res = await t
      .http()
      .get(`/api/v1/app/users/${user.id}`)
      .set(...bearer(keyA));
    expect(res.body).toMatchObject({
      authCount: 0,
      firstAuthAt: null,
      lastAuthAt: null,
      lastLoginAt: null,
    });
  });

  it('orders by user id and pages without repeats or gaps', async () => {
    const ids = await seedUsers(23);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const res = await list(keyA, `?page=${page}&pageSize=7`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 23, page, pageSize: 7 });
      expect(res.body.items).toHaveLength(page < 4 ? 7 : 2);
      seen.push(...res.body.items.map((u: { userId: string }) => u.userId));
    }
    expect(seen).toEqual(ids);
    const beyond = await list(keyA, '?page=5&pageSize=7');
    expect(beyond.body).toEqual({ items: [], total: 23, page: 5, pageSize: 7 });
  });

  it('uses defaults and clamps pageSize to 100', async () => {
    await seedUsers(3);
    expect((await list(keyA)).body).toMatchObject({ page: 1, pageSize: 20, total: 3 });
    expect((await list(keyA, '?pageSize=101')).body.pageSize).toBe(100);
    expect((await list(keyA, '?pageSize=99999999999999999999999')).body.pageSize).toBe(100);
    expect((await list(keyA, '?pageSize=100')).body.pageSize).toBe(100);
    expect((await list(keyA, '?pageSize=1')).body.items).toHaveLength(1);
  });

  it('filters by group and enabled, and total counts the filtered set', async () => {
    const ids = await seedUsers(10);
    const t1 = await list(keyA, '?group=t1');
    expect(t1.body.total).toBe(5);
    expect(t1.body.items.map((u: { userId: string }) => u.userId)).toEqual(
      ids.filter((_, i) => (i + 1) % 2 === 0),
    );
    const disabled = await list(keyA, '?enabled=false');
    expect(disabled.body.items.map((u: { userId: string }) => u.userId)).toEqual([ids[4], ids[9]]);
    expect(disabled.body.total).toBe(2);
    expect((await list(keyA, '?enabled=true')).body.total).toBe(8);
    const both = await list(keyA, '?group=t1&enabled=false&pageSize=1');
    expect(both.body).toMatchObject({ total: 1, pageSize: 1 });
    expect(both.body.items[0].userId).toBe(ids[9]);
    expect((await list(keyA, '?group=admin')).body).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
  });

  it('matches keyword case-insensitively on username or email', async () => {
    const a = await createUser(t.app, { username: 'JohnSmith', email: 'js@example.org' });
    const b = await createUser(t.app, { username: 'mary', email: 'mary.SMITHERS@example.net' });
    const c = await createUser(t.app, { username: 'other', email: 'other@example.com' });
    for (const u of [a, b, c]) await relate(t, appA, u.id);
    const smith = await list(keyA, '?keyword=SMITH');
    expect(smith.body.items.map((u: { username: string }) => u.username)).toEqual([
      'JohnSmith',
      'mary',
    ]);
    expect(smith.body.total).toBe(2);
    expect((await list(keyA, '?keyword=example.com')).body.total).toBe(1);
    const second = await list(keyA, '?keyword=smith&pageSize=1&page=2');
    expect(second.body.items.map((u: { username: string }) => u.username)).toEqual(['mary']);
    expect(second.body.total).toBe(2);
    expect((await list(keyA, '?keyword=smith&pageSize=1&page=3')).body).toEqual({
      items: [],
      total: 2,
      page: 3,
      pageSize: 1,
    });
    expect((await list(keyA, '?keyword=nobody')).body).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
    expect((await list(keyA, '?keyword=')).body.total).toBe(3);
  });

  it('keyword sees username and email changes, never spans the two, and ignores other apps', async () => {
    const u = await createUser(t.app, { username: 'carol', email: 'carol@example.org' });
    await relate(t, appA, u.id);
    await relate(t, appB, u.id);
    const names = async (key: string, kw: string) =>
      (await list(key, `?keyword=${encodeURIComponent(kw)}`)).body.items.map(
        (x: { username: string }) => x.username,
      );
    // The search key is username, a newline, then email (migration AppUserSearch).
    expect(await names(keyA, 'carolcarol')).toEqual([]);
    // A newline cannot be searched for at all: a control character is refused (invalid_query).
    const newline = await list(keyA, `?keyword=${encodeURIComponent('carol\ncarol')}`);
    expect([newline.status, newline.body.error]).toEqual([400, 'invalid_query']);
    expect(await names(keyA, 'carol carol')).toEqual([]);
    await t.dataSource.query(
      `UPDATE users SET username = 'Caroline', email = 'cb@example.net' WHERE id = $1`,
      [u.id],
    );
    expect(await names(keyA, 'CAROLINE')).toEqual(['Caroline']);
    expect(await names(keyB, 'example.net')).toEqual(['Caroline']);
    expect(await names(keyA, 'carol@')).toEqual([]);
    // A value written into the column directly is replaced by the trigger.
    await t.dataSource.query(`UPDATE app_users SET search = 'zzz' WHERE user_id = $1`, [u.id]);
    expect(await names(keyA, 'zzz')).toEqual([]);
    expect(await names(keyA, 'cb@')).toEqual(['Caroline']);
  });

  it('matches %, _ and \\ in a keyword literally', async () => {
    const users = [
      ['a_b', 'ab1@example.org'],
      ['axb', 'ab2@example.org'],
      ['plain', '100%off@example.org'],
      ['plain2', '100xoff@example.org'],
      ['plain3', 'backyslash@example.org'],
      ['plain4', 'backxslash@example.org'],
    ];
    for (const [username, email] of users) {
      await relate(t, appA, (await createUser(t.app, { username, email })).id);
    }
    // A backslash is no longer accepted in a new address (docs/accounts.md, "Addresses"); one
    // stored before that rule is still searched literally.
    await t.dataSource.query(
      `UPDATE users SET email = 'back\\slash@example.org' WHERE username = 'plain3'`,
    );
    const names = async (kw: string) =>
      (await list(keyA, `?keyword=${encodeURIComponent(kw)}`)).body.items.map(
        (u: { username: string }) => u.username,
      );
    expect(await names('a_b')).toEqual(['a_b']);
    expect(await names('_')).toEqual(['a_b']);
    expect(await names('100%')).toEqual(['plain']);
    expect(await names('%')).toEqual(['plain']);
    expect(await names('back\\s')).toEqual(['plain3']);
  });

  it.each([
    ['page=0'],
    ['page=-1'],
    ['page=abc'],
    ['page=1.5'],
    ['page='],
    ['page=1&page=2'],
    ['page=1000000001'],
    ['pageSize=abc'],
    ['pageSize=0'],
    ['pageSize=-5'],
    ['enabled=maybe'],
    ['enabled=TRUE'],
    ['group=t9'],
    ['group=T1'],
    ['pagesize=10'],
    [`keyword=${'k'.repeat(255)}`],
  ])('rejects ?%s with 400 invalid_query', async (query) => {
    const res = await list(keyA, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_query');
    expect(typeof res.body.message).toBe('string');
  });

  it('keeps applications apart: B sees only its relations and gets 404 for A-only users', async () => {
    const ids = await seedUsers(6);
    const b = await list(keyB);
    expect(b.body.items.map((u: { userId: string }) => u.userId)).toEqual([ids[2], ids[5]]);
    expect(b.body.total).toBe(2);
    expect((await list(keyB, '?keyword=member01')).body.total).toBe(0);
    const res = await t
      .http()
      .get(`/api/v1/app/users/${ids[0]}`)
      .set(...bearer(keyB));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user_not_found');
    const shared = await t
      .http()
      .get(`/api/v1/app/users/${ids[2]}`)
      .set(...bearer(keyB));
    expect(shared.status).toBe(200);
    expect(shared.body.group).toBe('t0');
  });

  it('404s a user that does not exist or has no relation', async () => {
    const loner = await createUser(t.app);
    for (const id of [loner.id, '999999', '0', '9223372036854775807']) {
      const res = await t
        .http()
        .get(`/api/v1/app/users/${id}`)
        .set(...bearer(keyA));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'user_not_found', message: expect.any(String) });
    }
  });

  it.each(['abc', '-1', '1.5', '1e3', '9223372036854775808', '99999999999999999999', '%20'])(
    'rejects userId %s with 400 invalid_user_id',
    async (id) => {
      const res = await t
        .http()
        .get(`/api/v1/app/users/${id}`)
        .set(...bearer(keyA));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_user_id');
    },
  );

  it('accepts leading zeros as the same decimal id', async () => {
    const user = await createUser(t.app);
    await relate(t, appA, user.id);
    const res = await t
      .http()
      .get(`/api/v1/app/users/000${user.id}`)
      .set(...bearer(keyA));
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(user.id);
  });

  it('needs user:read', async () => {
    const { plaintext } = await createApiKey(t.app, appA, ['stats:read', 'user:write']);
    for (const path of ['/api/v1/app/users', '/api/v1/app/users/1']) {
      const res = await t
        .http()
        .get(path)
        .set(...bearer(plaintext));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        message: expect.any(String),
        required_any_of: ['user:read'],
        granted_scopes: ['stats:read', 'user:write'],
      });
    }
  });
});
