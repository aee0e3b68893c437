import { EventsService } from '../../src/modules/events/events.service';
import type { EventType } from '../../src/modules/events/event-types';
import { WebhookDeliveryService } from '../../src/modules/webhooks/webhook-delivery.service';
import { WebhookEndpointsService } from '../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../factories';
import { FixedClock } from './fixed-clock';
import { createTestApp, TestApp } from './test-app';
import { WebhookReceiver } from './webhook-receiver';

/** Where every webhook test's clock starts. */
export const WEBHOOK_TEST_START = new Date('2026-05-01T00:00:00.000Z');

export interface WebhookBedOptions {
  /** The service's environment; default: http receivers on loopback allowed. */
  env?: Record<string, string>;
  /** After each test, no request may have failed the receiver's verification (default true). */
  allVerified?: boolean;
}

/** An endpoint made for a test, with the secret the receiver trusts for its path. */
export interface TestEndpoint {
  id: number;
  secret: string;
}

/**
 * What the webhook tests share, set up by useWebhookBed: a receiver on 127.0.0.1 that verifies
 * each request with the Standard Webhooks library, one service with a fixed clock, and, for
 * each test, empty tables, the clock at WEBHOOK_TEST_START and a new application.
 */
export interface WebhookBed {
  readonly clock: FixedClock;
  readonly receiver: WebhookReceiver;
  /** The service (set in beforeAll). */
  readonly t: TestApp;
  /** This test's application (set in beforeEach). */
  readonly appId: number;
  /** An endpoint of the application (default: this test's) on the receiver's `path`. */
  addEndpoint: (
    path: string,
    input?: { eventTypes?: string[]; applicationId?: number },
  ) => Promise<TestEndpoint>;
  /** Records one event for user 7 in its own committed transaction; its id. */
  record: (type?: EventType, applicationId?: number) => Promise<string>;
  /** One delivery round; how many endpoints it served. */
  round: () => Promise<number>;
}

/** Registers the hooks of a webhook test file (call it inside `describe`). */
export function useWebhookBed(options: WebhookBedOptions = {}): WebhookBed {
  const clock = new FixedClock();
  const receiver = new WebhookReceiver();
  let t: TestApp | undefined;
  let appId: number | undefined;
  const service = (): TestApp => {
    if (!t) throw new Error('the webhook bed is used before its beforeAll ran');
    return t;
  };
  const application = (): number => {
    if (appId === undefined) throw new Error('the webhook bed is used before its beforeEach ran');
    return appId;
  };

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ clock, env: options.env ?? { WEBHOOKS_ALLOW_INSECURE: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    await service().truncate();
    receiver.reset();
    clock.set(WEBHOOK_TEST_START);
    appId = (await createApplication(service().app)).application.id;
  });
  if (options.allVerified ?? true) afterEach(() => expect(receiver.rejected).toEqual([]));

  return {
    clock,
    receiver,
    get t() {
      return service();
    },
    get appId() {
      return application();
    },
    addEndpoint: async (path, input = {}) => {
      const { endpoint, secret } = await service()
        .app.get(WebhookEndpointsService)
        .create({
          applicationId: input.applicationId ?? application(),
          url: receiver.url(path),
          eventTypes: input.eventTypes ?? [],
        });
      receiver.trust(path, secret);
      return { id: endpoint.id, secret };
    },
    record: (type = 'token_issued', applicationId = application()) =>
      service().dataSource.transaction((m) =>
        service().app.get(EventsService).record(m, { applicationId, eventType: type, userId: '7' }),
      ),
    round: async () => (await service().app.get(WebhookDeliveryService).runRound()).served,
  };
}
