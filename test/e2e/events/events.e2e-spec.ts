import { createApiKey, createUser } from '../../factories';
import { bearer, twoApplications } from '../../factories/app-users';
import { insertEvent as insertOne } from '../../factories/events';
import { createTestApp, TestApp } from '../../support/test-app';

/** GET /events (docs/contract/events.md; docs/events.md). Paging back: events-paging.e2e-spec.ts. */
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

  const insertEvent = (app: number, type: string, at: string, userId: string | null = '7') =>
    insertOne(t.dataSource, app, type, at, userId);
  const ids = async (key: string, query: string): Promise<number[]> =>
    (await get(key, query)).body.items.map((e: { id: number }) => e.id);

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
    expect(await ids(keyA, '?before=2030-01-01T02:00:00Z')).toEqual([e2, e1]);
    expect(
      await ids(keyA, `?before=${encodeURIComponent('2030-01-01T03:00:00.000001+02:00')}`),
    ).toEqual([e2, e1]);
    expect(await ids(keyA, '?before=2030-01-01T00:00:00.000001Z')).toEqual([e1]);
    expect(await ids(keyA, '?eventType=authorization_granted')).toEqual([e3, e1]);
    expect(await ids(keyA, '?eventType=authorization_granted&before=2030-01-01T02:00:00Z')).toEqual(
      [e1],
    );
  });

  it('syncs forward by remembering the largest id seen (after)', async () => {
    const old = [
      await insertEvent(appA, 'token_issued', '2030-01-02T00:00:00Z'),
      await insertEvent(appA, 'token_revoked', '2030-01-01T00:00:00Z'),
    ];
    const b1 = await insertEvent(appB, 'token_issued', '2030-01-03T00:00:00Z');
    const first = await get(keyA, '?after=0');
    expect(first.status).toBe(200);
    expect(first.body.limit).toBe(50);
    // Ascending id order, not createdAt order: a later id may carry an earlier time.
    expect(first.body.items.map((e: { id: number }) => e.id)).toEqual(old);
    expect(first.body.items[1]).toEqual(expect.objectContaining({ eventType: 'token_revoked' }));
    const cursor = Math.max(...old);
    const added = [
      await insertEvent(appA, 'token_issued', '2029-12-31T00:00:00Z'),
      await insertEvent(appA, 'authorization_granted', '2030-01-05T00:00:00Z'),
    ];
    const b2 = await insertEvent(appB, 'token_issued', '2030-01-05T00:00:00Z');
    expect(await ids(keyA, `?after=${cursor}`)).toEqual(added);
    expect(await ids(keyA, `?after=${Math.max(...added)}`)).toEqual([]);
    expect(await ids(keyA, `?after=${cursor}&limit=1`)).toEqual([added[0]]);
    expect(await ids(keyA, '?after=0&eventType=token_issued')).toEqual([old[0], added[0]]);
    expect(await ids(keyB, '?after=0')).toEqual([b1, b2]);
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
    'after=-1',
    'after=abc',
    'after=1.5',
    'after=',
    'after=1&after=2',
    'after=1234567890123456789',
    'beforeId=3',
    'beforeId=0&before=2030-01-01T00:00:00Z',
    'beforeId=-1&before=2030-01-01T00:00:00Z',
    'beforeId=x&before=2030-01-01T00:00:00Z',
    'beforeId=2&after=1',
    'after=1&before=2030-01-01T00:00:00Z',
    'after=1&before=2030-01-01T00:00:00Z&beforeId=2',
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

  it('describes its query parameters in the OpenAPI document', async () => {
    const doc = await t.http().get('/api/docs-json').expect(200);
    const op = doc.body.paths['/api/v1/app/events'].get;
    const params = op.parameters as { name: string; in: string; schema: { type: string } }[];
    const described = params.map((p) => [p.name, p.in, p.schema.type]);
    expect(described.sort()).toEqual([
      ['after', 'query', 'integer'],
      ['before', 'query', 'string'],
      ['beforeId', 'query', 'integer'],
      ['eventType', 'query', 'string'],
      ['limit', 'query', 'integer'],
    ]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });

  it('needs user:read', async () => {
    const { plaintext } = await createApiKey(t.app, appA, ['stats:read']);
    const res = await get(plaintext);
    expect(res.status).toBe(403);
    expect(res.body.required_any_of).toEqual(['user:read']);
  });
});
