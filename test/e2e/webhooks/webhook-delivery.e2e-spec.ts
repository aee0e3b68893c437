import type { QueryRunner } from 'typeorm';
import { ShutdownState } from '../../../src/common/http/shutdown-state';
import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../src/modules/webhooks/webhook-delivery.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApiKey, createApplication, createUser } from '../../factories';
import { bearer, relate } from '../../factories/app-users';
import { createTestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';
import { useWebhookBed } from '../../support/webhook-bed';

const HOUR = 3600_000;

/**
 * The delivery engine against a real receiver (docs/webhooks.md): every request it counts has
 * passed the Standard Webhooks library's verification. Rounds are driven directly and time
 * moves with the injected clock, so nothing here waits on a timer.
 */
describe('webhooks: delivery', () => {
  const bed = useWebhookBed({
    // Pool room for the concurrent writers below (PostgreSQL; the embedded pool is 1).
    env: { WEBHOOKS_ALLOW_INSECURE: 'true', DATABASE_POOL_MAX: '30' },
  });
  const { clock, receiver, record, round } = bed;
  const writers: QueryRunner[] = [];
  afterEach(async () => {
    for (const runner of writers.splice(0)) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      if (!runner.isReleased) await runner.release();
    }
  });

  const addEndpoint = async (path: string, eventTypes: string[] = []): Promise<number> =>
    (await bed.addEndpoint(path, { eventTypes })).id;
  const endpointRow = async (id: number) => {
    const [row] = await bed.t.dataSource.query<
      {
        enabled: boolean;
        disabled_reason: string | null;
        next_attempt_at: Date | null;
        cursor: string;
        attempts: number;
        lease_owner: string | null;
      }[]
    >('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    return row;
  };

  it('sends each committed event once, signed, with the body GET /events shows (user unknown to the application: null)', async () => {
    await addEndpoint('/a');
    const first = await record('token_issued');
    const second = await record('authorization_granted');
    expect(await round()).toBe(1);

    expect(receiver.ids('/a')).toEqual([`evt_${first}`, `evt_${second}`]);
    const key = await createApiKey(bed.t.app, bed.appId, ['user:read']);
    const feed = await bed.t
      .http()
      .get('/api/v1/app/events?after=0')
      .set(...bearer(key.plaintext));
    expect(receiver.received.map((r) => r.body)).toEqual(
      feed.body.items.map((event: { eventType: string; createdAt: string }) => ({
        type: event.eventType,
        timestamp: event.createdAt,
        data: { ...event, user: null },
      })),
    );
    expect(receiver.received[0].headers).toEqual(
      expect.objectContaining({
        'content-type': 'application/json',
        'user-agent': 'identity-service-webhooks/1',
      }),
    );
    await round();
    expect(receiver.received).toHaveLength(2);
  });

  it('carries the user the event names as GET /users/{userId} shows them at the attempt', async () => {
    await addEndpoint('/a');
    const user = await createUser(bed.t.app, { nickname: 'Ada' });
    await relate(bed.t, bed.appId, user.id, { group: 't2' });
    const sent = await bed.t.dataSource.transaction((m) =>
      bed.t.app
        .get(EventsService)
        .record(m, { applicationId: bed.appId, eventType: 'token_issued', userId: user.id }),
    );
    await round();

    const key = await createApiKey(bed.t.app, bed.appId, ['user:read']);
    const view = await bed.t
      .http()
      .get(`/api/v1/app/users/${user.id}`)
      .set(...bearer(key.plaintext))
      .expect(200);
    expect(receiver.ids('/a')).toEqual([`evt_${sent}`]);
    const { data } = receiver.received[0].body;
    expect(data.userId).toBe(user.id);
    expect(data.user).toEqual(view.body);
    expect(data.user).toEqual(expect.objectContaining({ nickname: 'Ada', group: 't2' }));
  });

  it('never sends an event whose transaction rolled back', async () => {
    await addEndpoint('/a');
    await expect(
      bed.t.dataSource.transaction(async (m) => {
        await bed.t.app.get(EventsService).record(m, {
          applicationId: bed.appId,
          eventType: 'token_issued',
          userId: '7',
        });
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    await round();
    expect(receiver.received).toEqual([]);

    const committed = await record();
    await round();
    expect(receiver.ids('/a')).toEqual([`evt_${committed}`]);
  });

  // With PostgreSQL two sessions write at once; PGlite has one session, so there the writers
  // take turns and the test shows the order only (the commit horizon: events-forward-sync).
  const concurrency = usingRealServices()
    ? 'two PostgreSQL sessions, the later id committed first'
    : 'PGlite: one session, writers in turn';
  it(`holds back an event committed after a later one until the earlier one commits (${concurrency})`, async () => {
    await addEndpoint('/a');
    if (!usingRealServices()) {
      const early = await record();
      const late = await record();
      await round();
      expect(receiver.ids('/a')).toEqual([`evt_${early}`, `evt_${late}`]);
      return;
    }
    const writer = bed.t.dataSource.createQueryRunner();
    writers.push(writer);
    await writer.connect();
    await writer.startTransaction();
    const early = await bed.t.app.get(EventsService).record(writer.manager, {
      applicationId: bed.appId,
      eventType: 'token_issued',
      userId: '7',
    });
    // A later event commits at once; the round must not pass the open transaction's id: the
    // commit horizon waits for it, then gives this round up.
    const late = await record();
    await round();
    expect(receiver.received).toEqual([]);
    await writer.commitTransaction();
    await round();
    expect(receiver.ids('/a')).toEqual([`evt_${early}`, `evt_${late}`]);
  });

  it('retries the head event with the same webhook-id; later events wait for it, on that endpoint only', async () => {
    const failing = await addEndpoint('/failing');
    await addEndpoint('/healthy');
    receiver.script('/failing', { status: 500 }, { status: 500 }, { status: 500 });
    const first = await record();
    const second = await record();

    await round();
    expect(receiver.ids('/failing')).toEqual([`evt_${first}`]);
    expect(receiver.ids('/healthy')).toEqual([`evt_${first}`, `evt_${second}`]);

    // Not due yet: the backoff holds the next attempt.
    const due = (await endpointRow(failing)).next_attempt_at!.getTime();
    expect(due - clock.now().getTime()).toBeGreaterThanOrEqual(5000);
    expect(due - clock.now().getTime()).toBeLessThanOrEqual(6000);
    await round();
    expect(receiver.ids('/failing')).toHaveLength(1);

    for (let i = 0; i < 3; i += 1) {
      clock.advance(2 * HOUR);
      await round();
    }
    expect(receiver.ids('/failing')).toEqual([
      `evt_${first}`,
      `evt_${first}`,
      `evt_${first}`,
      `evt_${first}`,
      `evt_${second}`,
    ]);
    const row = await endpointRow(failing);
    expect(row).toEqual(
      expect.objectContaining({ cursor: String(second), next_attempt_at: null, lease_owner: null }),
    );
    const log = await bed.t.dataSource.query<{ status_code: number }[]>(
      'SELECT status_code FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
      [failing],
    );
    expect(log.map((r) => r.status_code)).toEqual([500, 500, 500, 200, 200]);
  });

  it('retries a receiver that refuses connections, then sends every event in order once it is back', async () => {
    const id = await addEndpoint('/back');
    const sent = [await record(), await record()];
    await receiver.stop();
    try {
      await round();
      sent.push(await record());
      // Each retry when the schedule says, the receiver still down.
      for (let attempt = 2; attempt <= 4; attempt += 1) {
        clock.set((await endpointRow(id)).next_attempt_at!);
        await round();
      }
    } finally {
      await receiver.start();
    }
    expect(receiver.received).toEqual([]);
    const log = await bed.t.dataSource.query<
      { event_id: string; status_code: number | null; error: string }[]
    >(
      `SELECT event_id::text AS event_id, status_code, error FROM webhook_deliveries
       WHERE endpoint_id = $1 ORDER BY id`,
      [id],
    );
    expect(log).toEqual(
      Array(4).fill({
        event_id: sent[0],
        status_code: null,
        error: expect.stringMatching(/ECONNREFUSED/),
      }),
    );
    expect(await endpointRow(id)).toEqual(expect.objectContaining({ cursor: '0', attempts: 4 }));

    clock.set((await endpointRow(id)).next_attempt_at!);
    await round();
    expect(receiver.ids('/back')).toEqual(sent.map((event) => `evt_${event}`));
    expect(await endpointRow(id)).toEqual(
      expect.objectContaining({ cursor: sent[2], attempts: 0, next_attempt_at: null }),
    );
  });

  // PostgreSQL: 20 transactions open at once, committed newest id first, with rounds running
  // between the commits. PGlite has one session: the 20 writers and the rounds take turns.
  const writersMode = usingRealServices()
    ? '20 open PostgreSQL transactions, committed newest first'
    : 'PGlite: 20 writers and rounds in turn';
  it(`sends exactly the committed events of concurrent writers, in ascending id order (${writersMode})`, async () => {
    await addEndpoint('/many');
    const rollsBack = (writer: number) => writer % 4 === 1;
    const events = bed.t.app.get(EventsService);
    const event = { applicationId: bed.appId, eventType: 'token_issued' as const, userId: '7' };
    const committed: string[] = [];
    if (usingRealServices()) {
      const open = Array.from({ length: 20 }, () => bed.t.dataSource.createQueryRunner());
      writers.push(...open);
      await Promise.all(
        open.map((runner) => runner.connect().then(() => runner.startTransaction())),
      );
      const ids = await Promise.all(open.map((runner) => events.record(runner.manager, event)));
      const newestFirst = open
        .map((_, writer) => writer)
        .sort((a, b) => Number(ids[b]) - Number(ids[a]));
      const rounds: Promise<number>[] = [];
      for (const writer of newestFirst) {
        rounds.push(round());
        if (rollsBack(writer)) await open[writer].rollbackTransaction();
        else {
          await open[writer].commitTransaction();
          committed.push(ids[writer]);
        }
      }
      await Promise.all(rounds);
    } else {
      await Promise.all([
        ...Array.from({ length: 20 }, (_, writer) =>
          bed.t.dataSource
            .transaction(async (m) => {
              const id = await events.record(m, event);
              if (rollsBack(writer)) throw new Error(`writer ${writer} rolls back`);
              return id;
            })
            .then(
              (id) => committed.push(id),
              () => undefined,
            ),
        ),
        ...Array.from({ length: 5 }, round),
      ]);
    }
    await round();
    expect(committed).toHaveLength(15);
    const ascending = [...committed].sort((a, b) => Number(a) - Number(b));
    expect(receiver.ids('/many')).toEqual(ascending.map((id) => `evt_${id}`));
  });

  it('does not follow a redirect: a 3xx is a failure and the event stays at the head', async () => {
    const id = await addEndpoint('/moved');
    await addEndpoint('/target');
    receiver.script('/moved', { status: 302, headers: { Location: receiver.url('/target') } });
    await record();
    await round();
    expect(receiver.ids('/moved')).toHaveLength(1);
    // The one request /target got is its own delivery, not a followed redirect.
    expect(receiver.ids('/target')).toHaveLength(1);
    const log = await bed.t.dataSource.query<{ status_code: number }[]>(
      'SELECT status_code FROM webhook_deliveries WHERE endpoint_id = $1',
      [id],
    );
    expect(log).toEqual([{ status_code: 302 }]);
    expect((await endpointRow(id)).cursor).toBe('0');
  });

  it('passes over the event types an endpoint does not take', async () => {
    const id = await addEndpoint('/tokens', ['token_issued']);
    await record('code_issued');
    const token = await record('token_issued');
    const last = await record('code_issued');
    await round();
    expect(receiver.ids('/tokens')).toEqual([`evt_${token}`]);
    expect((await endpointRow(id)).cursor).toBe(last);
  });

  it('waits as long as Retry-After asks (seconds or a date), at most one hour', async () => {
    const id = await addEndpoint('/busy');
    receiver.script(
      '/busy',
      { status: 503, headers: { 'Retry-After': '120' } },
      {
        status: 429,
        headers: { 'Retry-After': new Date(clock.now().getTime() + 300_000).toUTCString() },
      },
      { status: 503, headers: { 'Retry-After': '86400' } },
    );
    await record();
    await round();
    expect((await endpointRow(id)).next_attempt_at).toEqual(
      new Date(clock.now().getTime() + 120_000),
    );
    clock.advance(120_000);
    const start = clock.now().getTime();
    await round();
    expect((await endpointRow(id)).next_attempt_at!.getTime()).toBe(start - 120_000 + 300_000);
    clock.advance(180_000);
    await round();
    expect((await endpointRow(id)).next_attempt_at).toEqual(new Date(clock.now().getTime() + HOUR));
    expect(receiver.ids('/busy')).toHaveLength(3);
  });

  it('410 Gone disables the endpoint, with an audit entry', async () => {
    const id = await addEndpoint('/gone');
    receiver.script('/gone', { status: 410 });
    await record();
    await round();
    expect(await endpointRow(id)).toEqual(
      expect.objectContaining({
        enabled: false,
        disabled_reason: 'the endpoint answered 410 Gone',
      }),
    );
    const audit = await bed.t.dataSource.query<
      { action: string; target: string; application_id: number }[]
    >(`SELECT action, target, application_id FROM audit_log WHERE details->>'via' = 'delivery'`);
    expect(audit).toEqual([
      { action: 'webhook.disable', target: `webhook:${id}`, application_id: bed.appId },
    ]);
    clock.advance(3 * HOUR);
    await round();
    expect(receiver.ids('/gone')).toHaveLength(1);
  });

  it('disables an endpoint that has failed for 24 hours, with an audit entry', async () => {
    const id = await addEndpoint('/down');
    receiver.script('/down', ...Array.from({ length: 20 }, () => ({ status: 500 })));
    await record();
    await round();
    clock.advance(23 * HOUR);
    await round();
    expect((await endpointRow(id)).enabled).toBe(true);
    clock.advance(HOUR);
    await round();
    expect(await endpointRow(id)).toEqual(
      expect.objectContaining({
        enabled: false,
        disabled_reason: 'deliveries failed for 24 hours',
      }),
    );
    const audit = await bed.t.dataSource.query<{ action: string }[]>(
      `SELECT action FROM audit_log WHERE details->>'via' = 'delivery'`,
    );
    expect(audit).toEqual([{ action: 'webhook.disable' }]);
  });

  it('keeps the last 100 attempts of an endpoint in the delivery log', async () => {
    const id = await addEndpoint('/log');
    await bed.t.dataSource.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, attempted_at, latency_ms)
       SELECT $1, n, now(), 1 FROM generate_series(1, 100) AS n`,
      [id],
    );
    const event = await record();
    await round();
    const rows = await bed.t.dataSource.query<{ event_id: string }[]>(
      'SELECT event_id::text AS event_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
      [id],
    );
    expect(rows).toHaveLength(100);
    expect(rows[0].event_id).toBe('2');
    expect(rows[99].event_id).toBe(event);
  });

  it('reports work left after a full batch of 50 events, none once the endpoint has caught up', async () => {
    await addEndpoint('/busy');
    await bed.t.dataSource.query(
      `INSERT INTO events (application_id, event_type, user_id, scope, description, created_at)
       SELECT $1, 'token_issued', '7', '', '', now() FROM generate_series(1, 60)`,
      [bed.appId],
    );
    const delivery = bed.t.app.get(WebhookDeliveryService);
    expect(await delivery.runRound()).toEqual({ served: 1, more: true });
    expect(receiver.ids('/busy')).toHaveLength(50);
    expect(await delivery.runRound()).toEqual({ served: 1, more: false });
    expect(receiver.ids('/busy')).toHaveLength(60);
  });

  it('gives every endpoint its turn when more are due than one round claims (20)', async () => {
    const paths: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      const app = (await createApplication(bed.t.app, { name })).application.id;
      for (let i = 0; i < 7; i += 1) {
        const path = `/turn/${name}/${i}`;
        const { secret } = await bed.t.app
          .get(WebhookEndpointsService)
          .create({ applicationId: app, url: receiver.url(path), eventTypes: [] });
        receiver.trust(path, secret);
        paths.push(path);
      }
      await bed.t.dataSource.transaction((m) =>
        bed.t.app
          .get(EventsService)
          .record(m, { applicationId: app, eventType: 'token_issued', userId: '7' }),
      );
    }
    expect(await round()).toBe(20);
    expect(await round()).toBe(20);
    expect(paths.map((path) => receiver.ids(path).length)).toEqual(paths.map(() => 1));
  });

  it('claims nothing once the instance is shutting down', async () => {
    // An instance of its own: the shutdown state cannot be undone.
    const closing = await createTestApp({ clock, env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
    try {
      const app = (await createApplication(closing.app, { name: 'Closing' })).application.id;
      const { secret } = await closing.app
        .get(WebhookEndpointsService)
        .create({ applicationId: app, url: receiver.url('/closing'), eventTypes: [] });
      receiver.trust('/closing', secret);
      await closing.dataSource.transaction((m) =>
        closing.app
          .get(EventsService)
          .record(m, { applicationId: app, eventType: 'token_issued', userId: null }),
      );
      closing.app.get(ShutdownState).begin();
      expect(await closing.app.get(WebhookDeliveryService).runRound()).toEqual({
        served: 0,
        more: false,
      });
      expect(receiver.received).toEqual([]);
    } finally {
      await closing.close();
    }
  });
});
