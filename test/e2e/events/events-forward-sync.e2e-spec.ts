import type { QueryRunner } from 'typeorm';
import { EVENT_WRITERS_LOCK } from '../../../src/modules/events/commit-horizon';
import { twoApplications } from '../../factories/app-users';
import { ForwardPoller, insertEvent } from '../../factories/events';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

/**
 * GET /events?after with writers committing out of id order (docs/events.md, "Forward sync").
 * On PostgreSQL the writers are separate sessions and the interleavings are real; embedded
 * PGlite is one session, so there the same contract is checked on the orders one session allows.
 */
describe('application API: events forward sync with concurrent writers', () => {
  let t: TestApp;
  let appA: number;
  let appB: number;
  let keyA: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // A failed test must not leave a writer open: its locks would hold the next truncate.
  const writers: QueryRunner[] = [];
  afterEach(async () => {
    for (const runner of writers.splice(0)) {
      if (runner.isReleased) continue;
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });
  beforeEach(async () => {
    await t.truncate();
    ({ appA, appB, keyA } = await twoApplications(t, ['user:read']));
  });

  /** A writer session with its transaction open. */
  async function openWriter(): Promise<QueryRunner> {
    const runner = t.dataSource.createQueryRunner();
    writers.push(runner);
    await runner.connect();
    await runner.startTransaction();
    return runner;
  }

  async function commit(runner: QueryRunner): Promise<void> {
    await runner.commitTransaction();
    await runner.release();
  }

  /** Resolves once `waiters` sessions wait for the application's event-writer lock. */
  async function lockWaiters(app: number, waiters: number, gaveUp: () => boolean) {
    while (!gaveUp()) {
      const [row] = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
           AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 2`,
        [EVENT_WRITERS_LOCK, app],
      );
      if (row.n >= waiters) return true;
    }
    return false;
  }

  const title = usingRealServices()
    ? 'two PostgreSQL sessions, k+1 committed while k is open'
    : 'PGlite: one session, writers in turn';
  it(`never returns id k+1 while id k can still commit (${title})`, async () => {
    const poller = new ForwardPoller(t, keyA);
    const [k, k1] = usingRealServices() ? await interleaved(poller) : await inTurn(poller);
    await poller.drain();
    const committed = await eventIds(appA);
    expect(poller.seen).toEqual(committed);
    expect(committed.slice(0, 2)).toEqual([k, k1]);
  });

  /**
   * Writer a draws k and stays open; writer b draws k+1 and commits; then a poll. Returns [k, k+1].
   * A naive `id > after` answers [k+1] here, and the client, remembering k+1, never sees k.
   */
  async function interleaved(poller: ForwardPoller): Promise<number[]> {
    const a = await openWriter();
    const k = await insertEvent(a, appA);
    const b = await openWriter();
    const k1 = await insertEvent(b, appA);
    await commit(b);
    expect(k1).toBe(k + 1);
    let answered = false;
    const firstPoll = poller.poll().finally(() => (answered = true));
    if (!(await lockWaiters(appA, 1, () => answered))) {
      // The poll answered while k was open (an empty page, or 503): it must not hold k+1.
      expect((await firstPoll) ?? []).not.toContain(k1);
      await commit(a);
      return [k, k1];
    }
    // The poll waits for writer a. A writer that starts now queues behind the poll, and its id
    // comes after the poll's horizon.
    const c = await openWriter();
    const late = insertEvent(c, appA);
    await lockWaiters(appA, 2, () => answered);
    await commit(a);
    const page = await firstPoll;
    // null: the poll's 1 s lock_timeout ran out first (503), possible only on a starved machine.
    if (page !== null) expect(page).toEqual([k, k1]);
    expect(await late).toBeGreaterThan(k1);
    await commit(c);
    return [k, k1];
  }

  /** One session: k and k+1 commit, k+2 is rolled back (a gap), k+3 commits after a poll. */
  async function inTurn(poller: ForwardPoller): Promise<number[]> {
    const k = await insertEvent(t.dataSource, appA);
    const k1 = await insertEvent(t.dataSource, appA);
    const writer = await openWriter();
    const aborted = await insertEvent(writer, appA);
    await writer.rollbackTransaction();
    await writer.release();
    expect(await poller.poll()).toEqual([k, k1]);
    const k3 = await insertEvent(t.dataSource, appA);
    expect([k1, aborted, k3]).toEqual([k + 1, k + 2, k + 3]);
    expect(await poller.poll()).toEqual([k3]);
    return [k, k1];
  }

  it('gives a poller every committed event exactly once during a burst of writers', async () => {
    const poller = new ForwardPoller(t, keyA);
    let writing = true;
    const polling = (async () => {
      while (writing) await poller.poll();
    })();
    // Six lanes of writers: the pool (10 connections) keeps room for the poller's requests,
    // so polls really land between the writers' statements.
    const lanes = Array.from({ length: 6 }, async () => {
      for (let i = 0; i < 15; i += 1) await writeSome();
    });
    await Promise.all(lanes).finally(() => (writing = false));
    await polling;
    await poller.drain();
    expect(poller.seen).toEqual(await eventIds(appA));
    expect(poller.seen.length).toBeGreaterThan(0);
  });

  /** One writer transaction: 1–3 events of either application, a round trip, maybe a rollback. */
  async function writeSome(): Promise<void> {
    const rollback = Math.random() < 0.2;
    await t.dataSource
      .transaction(async (m) => {
        const n = 1 + Math.floor(Math.random() * 3);
        for (let i = 0; i < n; i += 1) {
          await insertEvent(m, Math.random() < 0.75 ? appA : appB);
          await m.query('SELECT 1');
        }
        if (rollback) throw new Error('rollback');
      })
      .catch((error: Error) => {
        if (!rollback) throw error;
      });
  }

  async function eventIds(app: number): Promise<number[]> {
    const rows = await t.dataSource.query<{ id: number }[]>(
      'SELECT id::int AS id FROM events WHERE application_id = $1 ORDER BY id',
      [app],
    );
    return rows.map((r) => r.id);
  }
});
