import { createApiKey, createUser } from '../factories';
import { bearer, twoApplications } from '../utils/app-users';
import { createTestApp, TestApp } from '../utils/test-app';

/** GET /events (spec 2, 4.1, 6, 8; docs/events.md). */
describe('application API: events', () => {
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

  const get = (key: string, query = '') =>
    t
      .http()
      .get(`/api/v1/app/events${query}`)
      .set(...bearer(key));

  async function insertEvent(
    app: number,
    type: string,
    at: string,
    userId: string | null = '7',
  ): Promise<number> {
    const [row] = await t.dataSource.query(
      `INSERT INTO events (application_id, event_type, user_id, scope, description, created_at)
       VALUES ($1, $2, $3, 'openid email', 'd', $4) RETURNING id::int AS id`,
      [app, type, userId, at],
    );
    return row.id;
  }

  it('lists the application events newest first, ties broken by id, with every field', async () => {
    const e1 = await insertEvent(appA, 'authorization_granted', '2030-01-01T00:00:00Z');
    const e2 = await insertEvent(appA, 'token_issued', '2030-01-02T00:00:00Z');
    const e3 = await insertEvent(appA, 'token_revoked', '2030-01-02T00:00:00Z');
    const e4 = await insertEvent(appA, 'code_issued', '2030-01-01T12:00:00.250Z', null);
    await insertEvent(appB, 'token_issued', '2030-01-03T00:00:00Z');
    const res = await get(keyA);
    expect(res.status).toBe(200);
    expect(res.body.limit).toBe(50);
    expect(res.body.items.map((e: { id: number }) => e.id)).toEqual([e3, e2, e4, e1]);
    expect(res.body.items[0]).toEqual({
      id: e3,
      eventType: 'token_revoked',
      protocol: 'oauth2',
      status: 'success',
      userId: '7',
      scope: 'openid email',
      description: 'd',
      createdAt: '2030-01-02T00:00:00.000Z',
    });
    expect(res.body.items[2].userId).toBeNull();
    expect(res.body.items[2].createdAt).toBe('2030-01-01T12:00:00.250Z');
  });

  it('orders ties numerically by id, also past one digit', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      ids.push(await insertEvent(appA, 'token_issued', '2030-01-01T00:00:00Z'));
    }
    const res = await get(keyA);
    expect(res.body.items.map((e: { id: number }) => e.id)).toEqual([...ids].reverse());
    const page = await get(keyA, '?limit=5');
    expect(page.body.items.map((e: { id: number }) => e.id)).toEqual(ids.slice(-5).reverse());
  });

  it('never shows another application its events', async () => {
    await insertEvent(appA, 'token_issued', '2030-01-01T00:00:00Z');
    const res = await get(keyB);
    expect(res.body).toEqual({ items: [], limit: 50 });
    expect((await get(keyB, '?eventType=token_issued')).body.items).toEqual([]);
  });

  it('applies limit, clamps it to 200 and shows the value used', async () => {
    for (let i = 0; i < 205; i += 1) {
      await insertEvent(
        appA,
        'token_issued',
        new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(),
      );
    }
    const three = await get(keyA, '?limit=3');
    expect(three.body.limit).toBe(3);
    expect(three.body.items.map((e: { createdAt: string }) => e.createdAt)).toEqual([
      '2030-01-01T00:03:24.000Z',
      '2030-01-01T00:03:23.000Z',
      '2030-01-01T00:03:22.000Z',
    ]);
    const clamped = await get(keyA, '?limit=1000');
    expect(clamped.body.limit).toBe(200);
    expect(clamped.body.items).toHaveLength(200);
    expect((await get(keyA)).body.items).toHaveLength(50);
  });

  it('filters by before (exclusive, any offset) and eventType', async () => {
    const e1 = await insertEvent(appA, 'authorization_granted', '2030-01-01T00:00:00Z');
    const e2 = await insertEvent(appA, 'token_issued', '2030-01-01T01:00:00Z');
    const e3 = await insertEvent(appA, 'authorization_granted', '2030-01-01T02:00:00Z');
    const ids = async (q: string) =>
      (await get(keyA, q)).body.items.map((e: { id: number }) => e.id);
    expect(await ids('?before=2030-01-01T02:00:00Z')).toEqual([e2, e1]);
    expect(await ids(`?before=${encodeURIComponent('2030-01-01T03:00:00.000001+02:00')}`)).toEqual([
      e2,
      e1,
    ]);
    expect(await ids('?before=2030-01-01T00:00:00.000001Z')).toEqual([e1]);
    expect(await ids('?eventType=authorization_granted')).toEqual([e3, e1]);
    expect(await ids('?eventType=authorization_granted&before=2030-01-01T02:00:00Z')).toEqual([e1]);
  });

  it('syncs incrementally by remembering the last createdAt', async () => {
    for (let i = 0; i < 5; i += 1) await insertEvent(appA, 'token_issued', '2030-01-01T00:00:00Z');
    const first = (await get(keyA, '?limit=2')).body.items;
    expect(first.map((e: { id: number }) => e.id)).toEqual([5, 4]);
  });

  it.each([
    'limit=0',
    'limit=-1',
    'limit=abc',
    'limit=2.5',
    'before=yesterday',
    'before=2030-01-01',
    'before=2030-01-01T00:00:00',
    'before=2030-02-30T00:00:00Z',
    'before=2030-01-01T24:00:00Z',
    'eventType=login',
    'limit=1&limit=2',
    'after=2030-01-01T00:00:00Z',
  ])('rejects ?%s with 400 invalid_query', async (query) => {
    const res = await get(keyA, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_query', message: expect.any(String) });
  });

  it('records events through PATCH and revoke for this application only', async () => {
    const user = await createUser(t.app);
    await t.dataSource.query(
      `INSERT INTO app_users (application_id, user_id, granted_scope) VALUES ($1, $2, 'openid')`,
      [appA, user.id],
    );
    const { plaintext } = await createApiKey(t.app, appA, ['relation:revoke', 'user:read']);
    await t
      .http()
      .post(`/api/v1/app/users/${user.id}/revoke`)
      .set(...bearer(plaintext))
      .expect(200);
    const res = await get(keyA);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        eventType: 'authorization_revoked',
        userId: user.id,
        scope: 'openid',
      }),
    ]);
    expect((await get(keyB)).body.items).toEqual([]);
  });

  it('needs user:read', async () => {
    const { plaintext } = await createApiKey(t.app, appA, ['stats:read']);
    const res = await get(plaintext);
    expect(res.status).toBe(403);
    expect(res.body.required_any_of).toEqual(['user:read']);
  });
});
