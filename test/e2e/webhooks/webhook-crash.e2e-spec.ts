import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { childEnv } from '../../support/cli';
import { embeddedCopy, type EmbeddedCopy } from '../../support/embedded-templates';
import { startService, type ServiceProcess } from '../../support/service-process';
import { createTestApp, type TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';
import { WebhookReceiver } from '../../support/webhook-receiver';

interface EndpointRow {
  cursor: string;
  lease_owner: string | null;
}

/**
 * Delivering instances as real processes (docs/webhooks.md, "Several instances", "Shutdown"):
 * one is killed with SIGKILL while its POST is in flight, and another resumes from the cursor
 * once the lease has expired; one stopped with SIGTERM finishes its POST and releases the lease.
 *
 * With DATABASE_URL the second instance runs beside the first. The embedded database belongs to
 * one process at a time, so there the test, then each instance, opens the same data directory in
 * turn, the next one after the last has exited (or died). The lease is expired with an UPDATE
 * instead of waiting its 30 s.
 */
const INSECURE = { WEBHOOKS_ALLOW_INSECURE: 'true' };
const mode = usingRealServices()
  ? 'PostgreSQL: the second instance runs beside the first'
  : 'PGlite: the second instance opens the data directory after the first died';
describe(`webhooks: instances as processes (${mode})`, () => {
  const receiver = new WebhookReceiver();
  let data: EmbeddedCopy | undefined;
  let shared: TestApp | undefined;
  const services: ServiceProcess[] = [];
  let releaseHeld = (): void => undefined;

  beforeAll(async () => {
    await receiver.start();
    if (usingRealServices()) shared = await createTestApp({ env: INSECURE });
  });
  afterAll(async () => {
    await shared?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    receiver.reset();
    if (shared) await shared.truncate();
    else data = embeddedCopy('migrated');
    if (!shared && !data) throw new Error('the run has no migrated embedded template');
  });
  afterEach(async () => {
    releaseHeld();
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
      }
      await service.exitCode;
    }
    data?.remove();
    data = undefined;
    expect(receiver.rejected).toEqual([]);
  });

  /** Runs `fn` on the database: the shared app, or the data directory opened in this process. */
  async function onDatabase<T>(fn: (t: TestApp) => Promise<T>): Promise<T> {
    if (shared) return fn(shared);
    const t = await createTestApp({ env: { ...INSECURE, EMBEDDED_DATA_DIR: data!.dataDir } });
    try {
      return await fn(t);
    } finally {
      await t.close();
    }
  }

  /** An application with an endpoint on `path`, then `count` committed events; their ids. */
  const prepare = (path: string, count: number) =>
    onDatabase(async (t) => {
      const appId = (await createApplication(t.app)).application.id;
      const { endpoint, secret } = await t.app
        .get(WebhookEndpointsService)
        .create({ applicationId: appId, url: receiver.url(path), eventTypes: [] });
      receiver.trust(path, secret);
      const events: string[] = [];
      for (let i = 0; i < count; i += 1) {
        events.push(
          await t.dataSource.transaction((m) =>
            t.app
              .get(EventsService)
              .record(m, { applicationId: appId, eventType: 'token_issued', userId: '7' }),
          ),
        );
      }
      return { endpointId: endpoint.id, events };
    });

  const endpointRow = (id: number) =>
    onDatabase(async (t) => {
      const [row] = await t.dataSource.query<EndpointRow[]>(
        'SELECT cursor::text AS cursor, lease_owner FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      return row;
    });

  async function start(): Promise<ServiceProcess> {
    const service = await startService(
      childEnv({
        DATABASE_URL: process.env.DATABASE_URL,
        EMBEDDED_DATA_DIR: data?.dataDir ?? 'memory://',
        ...INSECURE,
        WEBHOOKS_POLL_MS: '50',
        SHUTDOWN_DRAIN_DELAY_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '60000',
      }),
    );
    services.push(service);
    return service;
  }

  /** The next answer of `path` waits until releaseHeld(); the rest are 200. */
  function holdNext(path: string): Promise<void> {
    receiver.script(path, { status: 200, until: new Promise((done) => (releaseHeld = done)) });
    return receiver.nextRequest();
  }

  async function receivedCount(path: string, count: number): Promise<void> {
    while (receiver.ids(path).length < count) await receiver.nextRequest();
  }

  it('SIGKILL mid-POST: another instance resumes from the cursor once the lease expires', async () => {
    const { endpointId, events } = await prepare('/crash', 5);
    const inFlight = holdNext('/crash');
    const first = await start();
    await inFlight;
    // The second instance is up while the first holds the lease (with PostgreSQL).
    const second = usingRealServices() ? await start() : undefined;

    first.child.kill('SIGKILL');
    await first.exitCode;
    expect(first.child.signalCode).toBe('SIGKILL');
    // The dead instance still holds the endpoint, the cursor before the event it was sending.
    // The second instance has sent nothing meanwhile: the lease is the dead one's for 30 s.
    expect(await endpointRow(endpointId)).toEqual({ cursor: '0', lease_owner: expect.any(String) });
    expect(receiver.received).toHaveLength(1);
    await onDatabase((t) =>
      t.dataSource.query(
        `UPDATE webhook_endpoints SET lease_until = now() - interval '1 second' WHERE id = $1`,
        [endpointId],
      ),
    );
    const taker = second ?? (await start());

    await receivedCount('/crash', events.length + 1);
    // Every event in commit order; the one in flight at the kill twice, under the same id.
    const ids = events.map((id) => `evt_${id}`);
    expect(receiver.ids('/crash')).toEqual([ids[0], ...ids]);
    for (const request of receiver.received) {
      expect(request.id).toBe(`evt_${request.body.data.id}`);
    }
    const [again, ...rest] = receiver.received;
    expect(again.raw).toBe(rest[0].raw);

    taker.child.kill('SIGTERM');
    expect(await taker.exitCode).toBe(0);
    expect(await endpointRow(endpointId)).toEqual({
      cursor: events[events.length - 1],
      lease_owner: null,
    });
    expect(receiver.received).toHaveLength(events.length + 1);
  }, 300_000);

  it('SIGTERM mid-POST: the POST finishes, no new one starts, the lease is released, exit 0', async () => {
    const { endpointId, events } = await prepare('/stop', 2);
    const inFlight = holdNext('/stop');
    const service = await start();
    await inFlight;

    service.child.kill('SIGTERM');
    await service.waitForStderr('SIGTERM: shutting down');
    releaseHeld();
    expect(await service.exitCode).toBe(0);
    expect(service.stderr()).toContain('Shutdown complete');
    expect(receiver.ids('/stop')).toEqual([`evt_${events[0]}`]);
    expect(await endpointRow(endpointId)).toEqual({ cursor: events[0], lease_owner: null });
  }, 300_000);
});
