import { EventPartitionsService } from '../../../src/modules/maintenance/event-partitions.service';
import { twoApplications } from '../../factories/app-users';
import { insertEvent } from '../../factories/events';
import { dropMonthlyPartitions, partitionsOf } from '../../support/event-partitions';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

/**
 * The events partition job (docs/operations.md, "Events retention and partitions"): months
 * created ahead, retention by whole months, many instances at once.
 */
describe('Events partitions and retention', () => {
  let t: TestApp;
  // A second instance on the same database exists only with DATABASE_URL (see oauth-purge).
  let other: TestApp | undefined;
  let app: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { EVENTS_RETENTION_DAYS: '400' } });
    if (usingRealServices()) other = await createTestApp({ clock: t.clock });
  });
  afterAll(async () => {
    await other?.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    await dropMonthlyPartitions(t.dataSource);
    ({ appA: app } = await twoApplications(t, ['user:read']));
  });

  const job = (instance: TestApp = t) => instance.app.get(EventPartitionsService);

  async function monthlyPartitions(): Promise<string[]> {
    const rows = await t.dataSource.query<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass AND c.relname <> 'events_default' ORDER BY 1`,
    );
    return rows.map((row) => row.name);
  }

  it('creates the current month and the next two, once', async () => {
    t.clock.set(new Date('2030-11-30T23:59:59.999Z'));
    expect((await job().runOnce()).created).toEqual([
      { name: 'events_p2030_11', moved: 0 },
      { name: 'events_p2030_12', moved: 0 },
      { name: 'events_p2031_01', moved: 0 },
    ]);
    expect(await job().runOnce()).toEqual({ created: [], dropped: [], expiredInDefault: 0 });
    t.clock.set(new Date('2030-12-01T00:00:00.000Z'));
    expect((await job().runOnce()).created).toEqual([{ name: 'events_p2031_02', moved: 0 }]);
  });

  it('drops exactly the months wholly older than EVENTS_RETENTION_DAYS, with their events', async () => {
    t.clock.set(new Date('2030-03-15T00:00:00Z'));
    await job().runOnce(); // 2030-03, -04, -05
    const ids = [];
    for (const at of ['2030-03-01T00:00:00Z', '2030-04-30T23:59:59.999Z', '2030-05-01T00:00:00Z']) {
      ids.push(await insertEvent(t.dataSource, app, 'token_issued', at));
    }
    // 400 days before 2031-06-05T00:00Z is 2030-05-01T00:00Z: April has just wholly expired.
    t.clock.set(new Date('2031-06-05T00:00:00Z'));
    const run = await job().runOnce();
    expect(run.dropped).toEqual([
      { name: 'events_p2030_03', events: 1 },
      { name: 'events_p2030_04', events: 1 },
    ]);
    expect(await partitionsOf(t.dataSource, ids)).toEqual([
      'missing',
      'missing',
      'events_p2030_05',
    ]);
    // May goes once all of it is older than the retention, not one millisecond before.
    t.clock.set(new Date('2031-07-05T23:59:59.999Z'));
    expect((await job().runOnce()).dropped).toEqual([]);
    t.clock.set(new Date('2031-07-06T00:00:00Z'));
    expect((await job().runOnce()).dropped).toEqual([{ name: 'events_p2030_05', events: 1 }]);
  });

  it('drops a month it detached when the process stopped before dropping it', async () => {
    t.clock.set(new Date('2030-03-15T00:00:00Z'));
    await job().runOnce(); // 2030-03, -04, -05
    const id = await insertEvent(t.dataSource, app, 'token_issued', '2030-03-10T00:00:00Z');
    // What a stop between the two steps of a drop leaves: the month detached, not yet dropped.
    await t.dataSource.query('ALTER TABLE events DETACH PARTITION events_p2030_03');
    expect(await partitionsOf(t.dataSource, [id])).toEqual(['missing']);
    t.clock.set(new Date('2031-06-05T00:00:00Z'));
    const run = await job().runOnce();
    expect(run.dropped).toEqual([
      { name: 'events_p2030_04', events: 0 },
      { name: 'events_p2030_03', events: 1 },
    ]);
    const [{ left }] = await t.dataSource.query<{ left: string | null }[]>(
      "SELECT to_regclass('events_p2030_03')::text AS left",
    );
    expect(left).toBeNull();
  });

  it('deletes events of expired months that landed in the default partition', async () => {
    t.clock.set(new Date('2031-06-05T00:00:00Z'));
    await insertEvent(t.dataSource, app, 'token_issued', '2030-04-30T23:59:59.999Z');
    const kept = await insertEvent(t.dataSource, app, 'token_issued', '2030-05-01T00:00:00Z');
    const run = await job().runOnce();
    expect(run.expiredInDefault).toBe(1);
    expect(run.created).toContainEqual({ name: 'events_p2030_05', moved: 1 });
    expect(await partitionsOf(t.dataSource, [kept])).toEqual(['events_p2030_05']);
  });

  it('lets two runs at once create each partition once, without an error', async () => {
    t.clock.set(new Date('2040-01-15T00:00:00Z'));
    const runs = await Promise.all([job().runOnce(), job(other ?? t).runOnce()]);
    const created = runs.flatMap((run) => run.created.map((p) => p.name)).sort();
    expect(created).toEqual(['events_p2040_01', 'events_p2040_02', 'events_p2040_03']);
    expect(await monthlyPartitions()).toEqual(created);
  });
});
