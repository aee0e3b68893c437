import { bearer, twoApplications } from '../../factories/app-users';
import { insertEvent as insertOne } from '../../factories/events';
import { createTestApp, TestApp } from '../../support/test-app';

const SAME_TIME = '2030-01-01T00:00:00.000Z';

/** GET /events paged back with the (createdAt, id) cursor before + beforeId (docs/events.md). */
describe('application API: events, paging back', () => {
  let t: TestApp;
  let appA: number;
  let appB: number;
  let keyA: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    ({ appA, appB, keyA } = await twoApplications(t, ['user:read']));
  });

  const get = (key: string, query = '') =>
    t
      .http()
      .get(`/api/v1/app/events${query}`)
      .set(...bearer(key));
  const insertEvent = (app: number, type: string, at: string) =>
    insertOne(t.dataSource, app, type, at);
  const ids = async (key: string, query: string): Promise<number[]> =>
    (await get(key, query)).body.items.map((e: { id: number }) => e.id);

  /** Pages back as docs/events.md says: before + beforeId from the last event of each page. */
  async function pageBack(key: string, limit: number, filter = ''): Promise<number[][]> {
    const pages: number[][] = [];
    let cursor = '';
    for (;;) {
      const res = await get(key, `?limit=${limit}${filter}${cursor}`);
      expect(res.status).toBe(200);
      const items = res.body.items as { id: number; createdAt: string }[];
      if (items.length === 0) return pages;
      pages.push(items.map((e) => e.id));
      const last = items[items.length - 1];
      cursor = `&before=${encodeURIComponent(last.createdAt)}&beforeId=${last.id}`;
    }
  }

  it('pages back through events with equal createdAt exactly once with before + beforeId', async () => {
    const tied: number[] = [];
    for (let i = 0; i < 5; i += 1) tied.push(await insertEvent(appA, 'token_issued', SAME_TIME));
    expect(await pageBack(keyA, 2)).toEqual([[tied[4], tied[3]], [tied[2], tied[1]], [tied[0]]]);
    // `before` alone stays the strict time filter of docs/contract/events.md#get-events: the rest of the tie is skipped.
    expect(await ids(keyA, `?limit=2&before=${SAME_TIME}`)).toEqual([]);
  });

  it('pages back across ties, other timestamps, offsets and an eventType filter', async () => {
    const times = ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00.001Z', '2030-01-02T00:00:00Z'];
    const all: { id: number; type: string; at: number }[] = [];
    for (let i = 0; i < 14; i += 1) {
      const type = i % 3 === 0 ? 'token_revoked' : 'token_issued';
      const at = times[(i * 5) % 3];
      all.push({ id: await insertEvent(appA, type, at), type, at: Date.parse(at) });
      await insertEvent(appB, type, times[i % 3]);
    }
    // The documented order: createdAt descending, then id descending.
    const newestFirst = (list: typeof all) =>
      [...list].sort((x, y) => y.at - x.at || y.id - x.id).map((e) => e.id);
    for (const limit of [1, 3, 200]) {
      expect((await pageBack(keyA, limit)).flat()).toEqual(newestFirst(all));
    }
    const revoked = all.filter((e) => e.type === 'token_revoked');
    expect((await pageBack(keyA, 2, '&eventType=token_revoked')).flat()).toEqual(
      newestFirst(revoked),
    );
    // The same instant written with another offset designates the same cursor.
    const [first, second] = newestFirst(all);
    const shifted = encodeURIComponent('2030-01-02T02:00:00.000+02:00');
    expect(await ids(keyA, `?limit=1&before=${shifted}&beforeId=${first}`)).toEqual([second]);
  });

  it('keeps createdAt at the millisecond it shows, so a cursor from a shown value is exact', async () => {
    const e1 = await insertEvent(appA, 'token_issued', '2030-01-01T00:00:00.000900Z');
    const e2 = await insertEvent(appA, 'token_issued', '2030-01-01T00:00:00.000100Z');
    const [newest] = (await get(keyA, '?limit=1')).body.items;
    expect(newest).toEqual(expect.objectContaining({ id: e2, createdAt: SAME_TIME }));
    expect(await ids(keyA, `?before=${SAME_TIME}&beforeId=${e2}`)).toEqual([e1]);
  });
});
