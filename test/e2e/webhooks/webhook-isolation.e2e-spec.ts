import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../src/modules/webhooks/webhook-delivery.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { HANGING_KINDS, HangingReceiver } from '../../support/hanging-receivers';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';
import { WEBHOOK_TEST_START } from '../../support/webhook-bed';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Each endpoint progresses on its own (docs/webhooks.md, "Several instances"): endpoints whose
 * receivers hold their requests open (no answer, an endless 200 body, a connection accepted and
 * never answered, a slow 503) hold back only themselves. Instance one delivers with its real
 * scheduler (a claim every 5 ms); instance two, on the same database when DATABASE_URL is set
 * (else the same instance), commits the events and claims beside it. Nothing here waits on a
 * timer: each step waits for the request it causes, and the assertions are about order (the
 * healthy endpoint's events arrive while the held requests are still open and unrecorded).
 */
describe('webhooks: one endpoint does not hold back another', () => {
  const clock = new FixedClock(WEBHOOK_TEST_START);
  const receiver = new WebhookReceiver();
  const env = { WEBHOOKS_ALLOW_INSECURE: 'true' };
  let one: TestApp;
  let two: TestApp;
  let hanging: HangingReceiver[] = [];
  let slowApp: number;
  let otherApp: number;

  beforeAll(async () => {
    await receiver.start();
    one = await createTestApp({ clock, env: { ...env, WEBHOOKS_POLL_MS: '5' } });
    two = usingRealServices() ? await createTestApp({ clock, env }) : one;
  });
  afterAll(async () => {
    if (two !== one) await two?.close();
    await one?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    await one.truncate();
    receiver.reset();
    slowApp = (await createApplication(two.app, { name: 'Slow receivers' })).application.id;
    otherApp = (await createApplication(two.app, { name: 'Healthy receiver' })).application.id;
    hanging = HANGING_KINDS.map((kind) => new HangingReceiver(kind));
  });
  afterEach(async () => {
    for (const held of hanging) await held.stop();
    // The held deliveries end (as failures) and release their leases.
    await one.app.get(WebhookDeliveryService).drain();
    expect(receiver.rejected).toEqual([]);
  });

  const endpoints = () => two.app.get(WebhookEndpointsService);
  const record = (applicationId: number): Promise<string> =>
    two.dataSource.transaction((m) =>
      two.app
        .get(EventsService)
        .record(m, { applicationId, eventType: 'token_issued', userId: '7' }),
    );
  /** The slow application's endpoints, each with a request held open by its receiver. */
  async function holdSlowEndpoints(): Promise<number[]> {
    const ids: number[] = [];
    for (const held of hanging) {
      const url = await held.start();
      ids.push(
        (await endpoints().create({ applicationId: slowApp, url, eventTypes: [] })).endpoint.id,
      );
    }
    await record(slowApp);
    await Promise.all(hanging.map((held) => held.arrived));
    return ids;
  }
  const attemptsLogged = async (ids: number[]): Promise<number> => {
    const [row] = await two.dataSource.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = ANY($1::int[])',
      [ids],
    );
    return row.count;
  };

  it("delivers another application's events, in order, while endpoints that hang hold their requests open", async () => {
    const { secret } = await endpoints().create({
      applicationId: otherApp,
      url: receiver.url('/healthy'),
      eventTypes: [],
    });
    receiver.trust('/healthy', secret);
    const held = await holdSlowEndpoints();

    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const arrived = receiver.nextRequest();
      sent.push(await record(otherApp));
      await arrived;
    }
    expect(receiver.ids('/healthy')).toEqual(sent.map((id) => `evt_${id}`));
    // Causality, not time: the held requests are still open and none has been recorded.
    expect(hanging.map((h) => [h.kind, h.openConnections])).toEqual(
      HANGING_KINDS.map((kind) => [kind, 1]),
    );
    expect(await attemptsLogged(held)).toBe(0);
  });

  it('lets the other instance claim none of the endpoints held in flight, each sent to once', async () => {
    const held = await holdSlowEndpoints();
    const { served } = await two.app.get(WebhookDeliveryService).runRound();

    expect(served).toBe(0);
    expect(hanging.map((h) => [h.kind, h.connections, h.openConnections])).toEqual(
      HANGING_KINDS.map((kind) => [kind, 1, 1]),
    );
    expect(await attemptsLogged(held)).toBe(0);
    // Released, each held attempt is recorded once, as a failure, by the instance that sent it.
    for (const h of hanging) h.release();
    await one.app.get(WebhookDeliveryService).drain();
    const rows = await two.dataSource.query<{ status_code: number | null }[]>(
      'SELECT status_code FROM webhook_deliveries WHERE endpoint_id = ANY($1::int[])',
      [held],
    );
    expect(rows).toHaveLength(HANGING_KINDS.length);
    expect(hanging.map((h) => h.connections)).toEqual(HANGING_KINDS.map(() => 1));
  });
});
