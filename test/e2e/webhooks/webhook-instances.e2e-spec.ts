import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../src/modules/webhooks/webhook-delivery.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Two instances on one database (docs/webhooks.md, "Several instances"): the lease gives each
 * endpoint to one instance at a time, so concurrent rounds send every event once. A second
 * instance needs DATABASE_URL (the embedded database belongs to one process): on the embedded
 * default the two are concurrent rounds of one instance, which the lease separates alike.
 */
const instances = usingRealServices()
  ? 'two instances on one database'
  : 'PGlite: concurrent rounds of one instance';
describe(`webhooks: ${instances}`, () => {
  const clock = new FixedClock();
  const receiver = new WebhookReceiver();
  const env = { WEBHOOKS_ALLOW_INSECURE: 'true' };
  let one: TestApp;
  let two: TestApp;
  let appId: number;

  beforeAll(async () => {
    await receiver.start();
    one = await createTestApp({ clock, env });
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
    clock.set(new Date('2026-05-01T00:00:00.000Z'));
    appId = (await createApplication(one.app)).application.id;
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const record = (on: TestApp): Promise<string> =>
    on.dataSource.transaction((m) =>
      on.app
        .get(EventsService)
        .record(m, { applicationId: appId, eventType: 'token_issued', userId: '7' }),
    );
  const rounds = () =>
    Promise.all(
      [one, two].map(async (on) => (await on.app.get(WebhookDeliveryService).runRound()).served),
    );

  it('delivers every event once to each endpoint while both instances run rounds', async () => {
    const service = one.app.get(WebhookEndpointsService);
    for (const path of ['/a', '/b', '/c']) {
      const { secret } = await service.create({
        applicationId: appId,
        url: receiver.url(path),
        eventTypes: [],
      });
      receiver.trust(path, secret);
    }
    const sent: string[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      sent.push(await record(one), await record(two));
      await rounds();
    }
    for (const path of ['/a', '/b', '/c']) {
      expect(receiver.ids(path)).toEqual(sent.map((id) => `evt_${id}`));
    }
  });

  it('leaves an endpoint leased by the other instance alone until the lease expires', async () => {
    const { endpoint, secret } = await one.app
      .get(WebhookEndpointsService)
      .create({ applicationId: appId, url: receiver.url('/a'), eventTypes: [] });
    receiver.trust('/a', secret);
    const event = await record(one);
    // An instance that claimed the endpoint and died mid-round.
    await one.dataSource.query(
      `UPDATE webhook_endpoints SET lease_owner = 'gone', lease_until = $2 WHERE id = $1`,
      [endpoint.id, new Date(clock.now().getTime() + 30_000)],
    );
    expect(await rounds()).toEqual([0, 0]);
    expect(receiver.received).toEqual([]);
    clock.advance(30_001);
    await rounds();
    expect(receiver.ids('/a')).toEqual([`evt_${event}`]);
  });
});
