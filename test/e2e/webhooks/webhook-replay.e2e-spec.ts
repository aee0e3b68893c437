import { Webhook } from 'standardwebhooks';
import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookResendService } from '../../../src/modules/webhooks/webhook-resend.service';
import {
  BY_CLI,
  WebhookEndpointsService,
} from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { useWebhookBed } from '../../support/webhook-bed';

const HOUR = 3600_000;

/**
 * Replay, resend and the test event (docs/webhooks.md): the cursor moves back and the rounds
 * send again in order; a round in flight during a replay cannot put the cursor back where it
 * was; resends and test events are sent at once, signed, logged, without touching the cursor or
 * the failure state. The receiver verifies every request with the Standard Webhooks library.
 */
describe('webhooks: replay, resend and test event', () => {
  const bed = useWebhookBed();
  const { clock, receiver, record, round } = bed;
  /** The secret of the endpoint added last. */
  let secret: string;

  const endpoints = () => bed.t.app.get(WebhookEndpointsService);
  const resends = () => bed.t.app.get(WebhookResendService);
  async function addEndpoint(path: string, applicationId = bed.appId): Promise<number> {
    const created = await bed.addEndpoint(path, { applicationId });
    secret = created.secret;
    return created.id;
  }
  const row = async (id: number) =>
    (
      await bed.t.dataSource.query<
        {
          cursor: string;
          generation: number;
          attempts: number;
          failing_since: Date | null;
          next_attempt_at: Date | null;
          lease_owner: string | null;
        }[]
      >(
        `SELECT cursor::text AS cursor, generation, attempts, failing_since, next_attempt_at,
                lease_owner FROM webhook_endpoints WHERE id = $1`,
        [id],
      )
    )[0];
  const log = (id: number) =>
    bed.t.dataSource.query<{ kind: string; event_id: string | null; status_code: number | null }[]>(
      `SELECT kind, event_id::text AS event_id, status_code FROM webhook_deliveries
       WHERE endpoint_id = $1 ORDER BY id`,
      [id],
    );
  const auditActions = () =>
    bed.t.dataSource.query<{ action: string; details: Record<string, unknown> }[]>(
      'SELECT action, details FROM audit_log ORDER BY id',
    );

  it('replays from an event: the rounds send it and every later one again, in order', async () => {
    const id = await addEndpoint('/a');
    const [e1, e2, e3] = [await record(), await record('code_issued'), await record()];
    await round();
    expect((await row(id)).cursor).toBe(e3);

    const replayed = await endpoints().replay(id, { fromEventId: e2 });
    expect(replayed.events).toBe(2);
    expect(replayed.endpoint.cursor).toBe(String(BigInt(e2) - 1n));
    await round();
    expect(receiver.ids('/a')).toEqual([e1, e2, e3, e2, e3].map((e) => `evt_${e}`));
    expect((await row(id)).cursor).toBe(e3);
    const [, entry] = await auditActions();
    expect(entry).toEqual({
      action: 'webhook.replay',
      details: {
        via: 'cli',
        fromEventId: e2,
        cursor: String(BigInt(e2) - 1n),
        previousCursor: e3,
      },
    });
  });

  it('replays from a time: from the first event created at or after it', async () => {
    const id = await addEndpoint('/a');
    await record();
    clock.advance(HOUR);
    const later = await record();
    await round();
    const replayed = await endpoints().replay(id, {
      fromTime: new Date(clock.now().getTime() - HOUR / 2).toISOString(),
    });
    expect(replayed).toEqual(
      expect.objectContaining({
        events: 1,
        endpoint: expect.objectContaining({ cursor: String(BigInt(later) - 1n) }),
      }),
    );
    // A time after every event leaves nothing to send again.
    const none = await endpoints().replay(id, { fromTime: '2030-01-01T00:00:00Z' });
    expect(none.events).toBe(1);
  });

  it('never moves the cursor forward, and refuses an event of another application', async () => {
    const id = await addEndpoint('/a');
    const first = await record();
    receiver.script('/a', { status: 200 }, { status: 500 });
    const second = await record();
    const third = await record();
    await round();
    expect((await row(id)).cursor).toBe(first);
    expect((await row(id)).attempts).toBe(1);

    const replayed = await endpoints().replay(id, { fromEventId: third });
    expect(replayed.endpoint.cursor).toBe(first);
    expect(replayed.events).toBe(2);
    // The failure state is cleared: the held event goes at once.
    expect(await row(id)).toEqual(
      expect.objectContaining({ attempts: 0, failing_since: null, next_attempt_at: null }),
    );
    await round();
    expect(receiver.ids('/a')).toEqual([first, second, second, third].map((e) => `evt_${e}`));

    const other = (await createApplication(bed.t.app, { name: 'Other' })).application.id;
    const theirs = await record('token_issued', other);
    await expect(endpoints().replay(id, { fromEventId: theirs })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(endpoints().replay(id, { fromEventId: '999999' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('a round whose 2xx arrives after a replay does not overwrite the replayed cursor', async () => {
    const id = await addEndpoint('/a');
    const e1 = await record();
    await round();
    const e2 = await record();
    let release!: () => void;
    receiver.script('/a', { status: 200, until: new Promise<void>((done) => (release = done)) });
    const arrived = receiver.nextRequest();
    const inFlight = round();
    await arrived;
    // The round holds evt_e2 in flight; the replay lands before its answer.
    await endpoints().replay(id, { fromEventId: e1 });
    release();
    await inFlight;
    expect(await row(id)).toEqual(
      expect.objectContaining({
        cursor: String(BigInt(e1) - 1n),
        generation: 1,
        lease_owner: null,
      }),
    );
    await round();
    expect(receiver.ids('/a')).toEqual([e1, e2, e1, e2].map((e) => `evt_${e}`));
    expect((await row(id)).cursor).toBe(e2);
  });

  it('a round whose failure arrives after a replay records no backoff', async () => {
    const id = await addEndpoint('/a');
    const e1 = await record();
    let release!: () => void;
    receiver.script('/a', { status: 503, until: new Promise<void>((done) => (release = done)) });
    const arrived = receiver.nextRequest();
    const inFlight = round();
    await arrived;
    await endpoints().replay(id, { fromEventId: e1 });
    release();
    await inFlight;
    expect(await row(id)).toEqual(
      expect.objectContaining({ attempts: 0, failing_since: null, next_attempt_at: null }),
    );
    expect(await log(id)).toEqual([{ kind: 'delivery', event_id: e1, status_code: 503 }]);
    await round();
    expect(receiver.ids('/a')).toEqual([`evt_${e1}`, `evt_${e1}`]);
  });

  it('a URL change during a round in flight sends the event to the new URL', async () => {
    const id = await addEndpoint('/old');
    const e1 = await record();
    let release!: () => void;
    receiver.script('/old', { status: 200, until: new Promise<void>((done) => (release = done)) });
    const arrived = receiver.nextRequest();
    const inFlight = round();
    await arrived;
    receiver.trust('/new', secret);
    await endpoints().changeUrl(id, receiver.url('/new'));
    release();
    await inFlight;
    await round();
    expect(receiver.ids('/old')).toEqual([`evt_${e1}`]);
    expect(receiver.ids('/new')).toEqual([`evt_${e1}`]);
    expect((await row(id)).cursor).toBe(e1);
  });

  it('resends one committed event with its webhook-id; the cursor and failure state stay', async () => {
    const id = await addEndpoint('/a');
    const e1 = await record();
    receiver.script('/a', { status: 200 }, { status: 500 }, { status: 204 });
    const e2 = await record();
    await round();
    const before = await row(id);
    expect(before).toEqual(expect.objectContaining({ cursor: e1, attempts: 1 }));

    const attempt = await resends().resend(id, e1, BY_CLI.actor);
    expect(attempt).toEqual(
      expect.objectContaining({ kind: 'resend', eventId: e1, statusCode: 204, error: null }),
    );
    expect(receiver.ids('/a')).toEqual([e1, e2, e1].map((e) => `evt_${e}`));
    expect(receiver.received[2].raw).toBe(receiver.received[0].raw);
    expect(await row(id)).toEqual(before);
    expect((await log(id)).map((r) => r.kind)).toEqual(['delivery', 'delivery', 'resend']);

    // Rolled back, of another application, or unknown: not one of its committed events.
    const aborted = await bed.t.dataSource
      .transaction(async (m) => {
        const eventId = await bed.t.app
          .get(EventsService)
          .record(m, { applicationId: bed.appId, eventType: 'token_issued', userId: '7' });
        throw Object.assign(new Error('rolled back'), { eventId });
      })
      .catch((error: { eventId: string }) => error.eventId);
    const other = (await createApplication(bed.t.app, { name: 'Other' })).application.id;
    const theirs = await record('token_issued', other);
    for (const eventId of [aborted, theirs, '999999']) {
      await expect(resends().resend(id, eventId, BY_CLI.actor)).rejects.toMatchObject({
        code: 'not_found',
      });
    }
    expect(receiver.received).toHaveLength(3);
    expect((await auditActions()).map((a) => a.action)).toEqual([
      'webhook.create',
      'webhook.resend',
    ]);
  });

  it('sends a signed test event; a failed one changes no state', async () => {
    const id = await addEndpoint('/a');
    receiver.script('/a', { status: 200 }, { status: 500 });
    const ok = await resends().sendTest(id, BY_CLI.actor);
    expect(ok).toEqual(expect.objectContaining({ kind: 'test', eventId: null, statusCode: 200 }));
    const [test] = receiver.received;
    expect(test.id).toMatch(/^test_[0-9a-f-]{36}$/);
    expect(test.body).toEqual({
      type: 'webhook.test',
      timestamp: clock.now().toISOString(),
      data: { applicationId: bed.appId, endpointId: id },
    });
    expect(() => new Webhook(secret).verify(test.raw, test.headers as never)).not.toThrow();

    const before = await row(id);
    const failed = await resends().sendTest(id, BY_CLI.actor);
    expect(failed).toEqual(expect.objectContaining({ kind: 'test', statusCode: 500 }));
    expect(failed.error).toMatch(/^HTTP 500/);
    expect(await row(id)).toEqual(before);
    expect(await log(id)).toEqual([
      { kind: 'test', event_id: null, status_code: 200 },
      { kind: 'test', event_id: null, status_code: 500 },
    ]);
    expect(receiver.ids('/a')[0]).not.toBe(receiver.ids('/a')[1]);
  });
});
