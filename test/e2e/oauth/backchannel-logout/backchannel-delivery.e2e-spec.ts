import { ApplicationsService } from '../../../../src/modules/applications/applications.service';
import { BackchannelDeliveryService } from '../../../../src/modules/oauth/backchannel-logout/backchannel-delivery.service';
import { BackchannelLeases } from '../../../../src/modules/oauth/backchannel-logout/backchannel-leases';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { LEASE_MS } from '../../../../src/modules/webhooks/webhook-leases';
import { BackchannelReceiver, verifyLogoutToken } from '../../../support/backchannel-receiver';
import { logoutClient, signInAndOut } from '../../../support/backchannel-sessions';
import { consoleWorld } from '../../../support/console';
import { FixedClock } from '../../../support/fixed-clock';
import { ISSUER } from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';

interface LogoutRow {
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
}

/**
 * Delivery of back-channel logouts (docs/oidc.md, "Back-channel logout"): the webhook transport's
 * rules, retries driven by the test clock, the lease shared by two instances on one database,
 * and what is kept of an attempt.
 */
describe('Back-channel logout delivery', () => {
  const clock = new FixedClock();
  const receiver = new BackchannelReceiver();
  const env = { WEBHOOKS_ALLOW_INSECURE: 'true' };
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    await receiver.start();
    one = await createTestApp({ clock, env });
    // A second instance needs DATABASE_URL (the embedded database belongs to one process).
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
    clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
    one.app.get(BackchannelDeliveryService).attemptTimeoutMs = 10_000;
  });

  const round = (on: TestApp = one) => on.app.get(BackchannelDeliveryService).runRound();
  const rows = (): Promise<LogoutRow[]> =>
    one.dataSource.query(
      `SELECT status, attempts, last_status_code, last_error, next_attempt_at
       FROM backchannel_logouts ORDER BY id`,
    );

  it('does not follow a redirect and never connects to a private address', async () => {
    const redirected = await logoutClient(one, receiver.url('/moved'));
    receiver.answer('/moved', { status: 307, headers: { location: receiver.url('/target') } });
    // An https URL the registration accepts, whose address the delivery refuses.
    const metadata = await logoutClient(one, 'https://169.254.169.254/logout', 'Metadata');
    await signInAndOut(one, redirected.clientId);
    await signInAndOut(one, metadata.clientId);

    await round();

    expect(receiver.at('/moved')).toHaveLength(1);
    expect(receiver.at('/target')).toEqual([]);
    const [moved, refused] = await rows();
    // A 3xx is a failure like a 5xx: retried later, never followed.
    expect(moved).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 307 });
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    expect(refused.last_error).toMatch(/169\.254\.169\.254/);
  });

  it('retries a receiver that is down until it comes back', async () => {
    const rp = await logoutClient(one, receiver.url('/rp'));
    const { sid } = await signInAndOut(one, rp.clientId);
    await receiver.stop();

    await round();
    const [refused] = await rows();
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    expect(refused.last_error).toMatch(/ECONNREFUSED|refused/i);
    // Not due yet: a round before the backoff sends nothing.
    expect(await round()).toEqual({ served: 0 });

    // Back, but busy: 503 with Retry-After, which decides the next attempt.
    await receiver.start();
    receiver.answer('/rp', { status: 503, headers: { 'retry-after': '120' } });
    clock.set(refused.next_attempt_at!);
    await round();
    const [busy] = await rows();
    expect(busy).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 503 });
    expect(busy.next_attempt_at!.getTime() - clock.now().getTime()).toBe(120_000);

    receiver.answer('/rp', { status: 204 });
    clock.advance(120_000);
    await round();
    expect(await rows()).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 3, last_status_code: 204 }),
    ]);
    const jwks = (await one.http().get('/api/oidc/jwks').expect(200)).body as { keys: object[] };
    const last = receiver.at('/rp').at(-1)!;
    const { claims } = await verifyLogoutToken(last.token, jwks, {
      issuer: ISSUER,
      audience: rp.clientId,
      now: clock.now(),
    });
    expect(claims.sid).toBe(sid);
  });

  it('refuses for good on a 400 and abandons after 24 hours of failures', async () => {
    const refusing = await logoutClient(one, receiver.url('/no'), 'Refusing');
    const failing = await logoutClient(one, receiver.url('/down'), 'Failing');
    receiver.answer('/no', { status: 400 });
    receiver.answer('/down', { status: 500 });
    await signInAndOut(one, refusing.clientId);
    await signInAndOut(one, failing.clientId);

    await round();
    clock.advance(24 * 60 * 60 * 1000);
    await round();

    const [refused, abandoned] = await rows();
    expect(refused).toMatchObject({ status: 'refused', attempts: 1, last_status_code: 400 });
    expect(refused.next_attempt_at).toBeNull();
    expect(abandoned).toMatchObject({ status: 'abandoned', attempts: 2, last_status_code: 500 });
    expect(receiver.at('/no')).toHaveLength(1);
    expect(await round()).toEqual({ served: 0 });
  });

  it('takes over a delivery whose instance stopped holding its lease', async () => {
    const rp = await logoutClient(one, receiver.url('/rp'));
    await signInAndOut(one, rp.clientId);
    // Instance one claims the logout and then stops (a crash): it never sends or records.
    const [claimed] = await one.app.get(BackchannelLeases).claim(clock.now(), 10, []);
    expect(claimed).toBeDefined();

    // The lease holds: the other instance leaves the logout alone.
    expect(await round(two)).toEqual({ served: 0 });
    clock.advance(LEASE_MS + 1);
    expect(await round(two)).toEqual({ served: 1 });
    expect(receiver.at('/rp')).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);

    // The stopped instance's late write lands nowhere: its lease is gone.
    const late = await one.app.get(BackchannelLeases).record(claimed, {
      status: 'abandoned',
      attempts: 9,
      next: null,
      statusCode: null,
      error: 'late',
      at: clock.now(),
    });
    expect(late).toBe(false);
    expect(await rows()).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });

  it('sends each logout once while two instances run rounds together', async () => {
    const rp = await logoutClient(one, receiver.url('/rp'));
    for (let i = 0; i < 4; i += 1) await signInAndOut(one, rp.clientId);
    const served = await Promise.all([round(one), round(two)]);
    expect(served.reduce((sum, { served: n }) => sum + n, 0)).toBe(4);
    expect(receiver.at('/rp')).toHaveLength(4);
    expect((await rows()).map((row) => row.status)).toEqual(Array(4).fill('delivered'));
  });

  it('gives up an attempt on a receiver that never answers and tries again later', async () => {
    const rp = await logoutClient(one, receiver.url('/slow'));
    await signInAndOut(one, rp.clientId);
    receiver.hang('/slow');
    // The transport's deadline, shortened for the test (10 s in service).
    one.app.get(BackchannelDeliveryService).attemptTimeoutMs = 300;

    await round();
    const [timedOut] = await rows();
    expect(timedOut).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    expect(timedOut.last_error).toBe('no response within 300 ms');

    receiver.reset();
    clock.set(timedOut.next_attempt_at!);
    await round();
    expect(await rows()).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
  });

  it('keeps no logout token: the console shows status, attempts and error only', async () => {
    const w = await consoleWorld(one);
    await one.app.get(ApplicationsService).update(w.applicationId, {
      authMethod: 'none',
      backchannelLogoutUri: receiver.url('/console'),
    });
    const { client_id: clientId } = (
      await one.dataSource.query<{ client_id: string }[]>(
        'SELECT client_id FROM applications WHERE id = $1',
        [w.applicationId],
      )
    )[0];
    await signInAndOut(one, clientId);
    receiver.answer('/console', { status: 503 });
    await round();
    receiver.answer('/console', { status: 200 });
    clock.advance(60_000);
    await round();
    const tokens = receiver.at('/console').map((logout) => logout.token);
    expect(tokens).toHaveLength(2);

    const path = `/api/console/applications/${w.applicationId}/backchannel-logouts`;
    const list = await w.admin.request('get', path).expect(200);
    expect(list.body).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        status: 'delivered',
        attempts: 2,
        lastStatusCode: 200,
        lastError: null,
        lastAttemptAt: clock.now().toISOString(),
        nextAttemptAt: null,
        deliveredAt: clock.now().toISOString(),
      },
    ]);
    await w.viewer.request('get', path).expect(403);
    await w.stranger.request('get', path).expect(404);
    // No token, nor any part of one, in the outbox, the audit log or the list.
    const stored = JSON.stringify([
      await one.dataSource.query('SELECT * FROM backchannel_logouts'),
      await one.dataSource.query('SELECT * FROM audit_log'),
      list.body,
    ]);
    for (const token of tokens) {
      for (const part of token.split('.')) expect(stored).not.toContain(part);
    }
  });
});
