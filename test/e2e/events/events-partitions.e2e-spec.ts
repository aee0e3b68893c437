import { EventsService } from '../../../src/modules/events/events.service';
import type { EventType } from '../../../src/modules/events/event-types';
import { EventPartitionsService } from '../../../src/modules/maintenance/event-partitions.service';
import { bearer, twoApplications } from '../../factories/app-users';
import { ForwardPoller } from '../../factories/events';
import { dropMonthlyPartitions, partitionsOf } from '../../support/event-partitions';
import { createTestApp, TestApp } from '../../support/test-app';

const DAY = 24 * 60 * 60 * 1000;
/** The last millisecond of January 2030 (UTC) and the first of February. */
const JANUARY_END = new Date('2030-01-31T23:59:59.999Z');
const FEBRUARY = new Date('2030-02-01T00:00:00.000Z');

/**
 * GET /events and GET /stats across the monthly partitions of events (docs/events.md,
 * "Partitions"): the same answers on both sides of a UTC month boundary.
 */
describe('application API: events across monthly partitions', () => {
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
    await dropMonthlyPartitions(t.dataSource);
    t.clock.set(JANUARY_END);
    await t.app.get(EventPartitionsService).runOnce();
    ({ appA, appB, keyA } = await twoApplications(t, ['user:read', 'stats:read']));
  });

  /** Records an event through EventsService at `at` (the service clock); returns its id. */
  async function record(app: number, at: Date, type: EventType = 'token_issued') {
    t.clock.set(at);
    const id = await t.app
      .get(EventsService)
      .record(t.dataSource.manager, { applicationId: app, eventType: type, userId: '7' });
    return Number(id);
  }

  it('pages forward across the month boundary in id order, writers out of time order included', async () => {
    const ids = [
      await record(appA, new Date(JANUARY_END.getTime() - 1)),
      await record(appB, JANUARY_END),
      await record(appA, FEBRUARY),
      // A writer whose clock read came before the boundary commits after one past it.
      await record(appA, JANUARY_END),
      await record(appA, new Date(FEBRUARY.getTime() + 1)),
    ];
    expect(await partitionsOf(t.dataSource, ids)).toEqual([
      'events_p2030_01',
      'events_p2030_01',
      'events_p2030_02',
      'events_p2030_01',
      'events_p2030_02',
    ]);
    const poller = new ForwardPoller(t, keyA, 2);
    await poller.drain();
    expect(poller.seen).toEqual([ids[0], ids[2], ids[3], ids[4]]);
  });

  it('pages back across the month boundary, newest first', async () => {
    const older = await record(appA, JANUARY_END);
    const newer = await record(appA, FEBRUARY);
    const first = await t
      .http()
      .get('/api/v1/app/events?limit=1')
      .set(...bearer(keyA));
    expect(first.body.items.map((e: { id: number }) => e.id)).toEqual([newer]);
    const next = await t
      .http()
      .get(`/api/v1/app/events?limit=1&before=${first.body.items[0].createdAt}&beforeId=${newer}`)
      .set(...bearer(keyA));
    expect(next.body.items).toEqual([
      expect.objectContaining({ id: older, createdAt: '2030-01-31T23:59:59.999Z' }),
    ]);
  });

  it('counts a 30-day stats window spanning two months by UTC day', async () => {
    const granted = (at: string) => record(appA, new Date(at), 'authorization_granted');
    await granted('2030-01-10T23:59:59.999Z'); // the day before the window
    await granted('2030-01-11T00:00:00.000Z'); // its first day
    await granted('2030-01-31T23:59:59.999Z');
    await granted('2030-02-01T00:00:00.000Z');
    await granted('2030-02-01T12:00:00.000Z');
    await granted('2030-02-09T08:00:00.000Z'); // today
    t.clock.set(new Date('2030-02-09T10:00:00.000Z'));
    const res = await t
      .http()
      .get('/api/v1/app/stats')
      .set(...bearer(keyA));
    expect(res.status).toBe(200);
    const days: { date: string; count: number }[] = res.body.dailyAuthCounts;
    expect(days).toHaveLength(30);
    expect(days.filter((d) => d.count > 0)).toEqual([
      { date: '2030-02-09', count: 1 },
      { date: '2030-02-01', count: 2 },
      { date: '2030-01-31', count: 1 },
      { date: '2030-01-11', count: 1 },
    ]);
    expect(days[29].date).toBe('2030-01-11');
  });

  it('takes an event for a month without a partition, and the job moves it into its new month with its id', async () => {
    const later = new Date(JANUARY_END.getTime() + 200 * DAY);
    const stray = await record(appA, later);
    expect(await partitionsOf(t.dataSource, [stray])).toEqual(['events_default']);
    const poller = new ForwardPoller(t, keyA);
    await poller.drain();
    expect(poller.seen).toEqual([stray]);

    const run = await t.app.get(EventPartitionsService).runOnce();
    expect(run.created).toContainEqual({ name: 'events_p2030_08', moved: 1 });
    expect(await partitionsOf(t.dataSource, [stray])).toEqual(['events_p2030_08']);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM events_default',
    );
    expect(n).toBe(0);
    // New events of that month go to its partition; the feed goes on from the same cursor.
    const next = await record(appA, later);
    expect(await partitionsOf(t.dataSource, [next])).toEqual(['events_p2030_08']);
    await poller.drain();
    expect(poller.seen).toEqual([stray, next]);
  });
});
