import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { createTestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Shutdown with a delivery in flight (docs/webhooks.md, "Guarantees"): the scheduler's round is
 * awaited, so the POST completes, the cursor moves and the lease is released before the
 * database closes; nothing is claimed after.
 */
describe('webhooks: shutdown', () => {
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('lets the POST in flight finish, records it and releases the lease on close', async () => {
    const t = await createTestApp({
      env: { WEBHOOKS_ALLOW_INSECURE: 'true', WEBHOOKS_POLL_MS: '5' },
    });
    let closed = false;
    try {
      await t.truncate();
      const appId = (await createApplication(t.app)).application.id;
      const { endpoint, secret } = await t.app
        .get(WebhookEndpointsService)
        .create({ applicationId: appId, url: receiver.url('/slow'), eventTypes: [] });
      receiver.trust('/slow', secret);
      let answer!: () => void;
      receiver.script('/slow', { status: 200, until: new Promise((done) => (answer = done)) });
      const arrived = receiver.nextRequest();
      const event = await t.dataSource.transaction((m) =>
        t.app
          .get(EventsService)
          .record(m, { applicationId: appId, eventType: 'token_issued', userId: null }),
      );
      await arrived;

      const closing = t.close().then(() => (closed = true));
      answer();
      await closing;
      expect(receiver.ids('/slow')).toEqual([`evt_${event}`]);
      expect(receiver.rejected).toEqual([]);
      // The row, read by a second instance: only PostgreSQL outlives the closed one.
      if (!usingRealServices()) return;
      const reopened = await createTestApp();
      try {
        const [row] = await reopened.dataSource.query<{ cursor: string; lease_owner: null }[]>(
          'SELECT cursor::text AS cursor, lease_owner FROM webhook_endpoints WHERE id = $1',
          [endpoint.id],
        );
        expect(row).toEqual({ cursor: event, lease_owner: null });
      } finally {
        await reopened.close();
      }
    } finally {
      if (!closed) await t.close();
    }
  });
});
