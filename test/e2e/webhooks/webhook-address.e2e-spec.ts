import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { useWebhookBed } from '../../support/webhook-bed';

/**
 * The address rule at delivery (docs/webhooks.md, "Delivery addresses"): the host is resolved
 * at every attempt and a private, loopback or link-local address is refused, as a failure that
 * is logged and retried, unless WEBHOOKS_ALLOWED_PRIVATE_HOSTS names it. The receiver listens
 * on 127.0.0.1 and counts every request, verified or not.
 */
describe.each([
  ['refused: no allow-list', '', false],
  ['allowed: WEBHOOKS_ALLOWED_PRIVATE_HOSTS=127.0.0.1', 'internal.example, 127.0.0.1', true],
])('webhooks: delivery addresses (%s)', (_name, allowList, allowed) => {
  const bed = useWebhookBed({
    env: { WEBHOOKS_ALLOW_INSECURE: 'false', WEBHOOKS_ALLOWED_PRIVATE_HOSTS: allowList },
    allVerified: false,
  });
  const { clock, receiver, record, round } = bed;

  /**
   * An https endpoint, then pointed at `url` in the table: the URL rule is checked when an
   * endpoint is added, the address rule at every delivery, whatever the stored URL.
   */
  async function endpointAt(url: string, path = '/in'): Promise<number> {
    const { endpoint, secret } = await bed.t.app
      .get(WebhookEndpointsService)
      .create({ applicationId: bed.appId, url: 'https://hooks.example/in', eventTypes: [] });
    await bed.t.dataSource.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [
      endpoint.id,
      url,
    ]);
    receiver.trust(path, secret);
    return endpoint.id;
  }

  const log = (id: number) =>
    bed.t.dataSource.query<{ status_code: number | null; error: string | null }[]>(
      'SELECT status_code, error FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
      [id],
    );

  it(`a receiver on loopback (127.0.0.1 and localhost) is ${allowed ? 'reached' : 'never connected to'}`, async () => {
    const byIp = await endpointAt(receiver.url('/in'));
    const event = await record();
    await round();
    if (allowed) {
      expect(receiver.ids('/in')).toEqual([`evt_${event}`]);
      expect(await log(byIp)).toEqual([{ status_code: 200, error: null }]);
      return;
    }
    expect(receiver.received).toEqual([]);
    expect(receiver.rejected).toEqual([]);
    expect(await log(byIp)).toEqual([
      { status_code: null, error: 'address not allowed: 127.0.0.1 resolves to 127.0.0.1' },
    ]);
    const [row] = await bed.t.dataSource.query<
      { attempts: number; next_attempt_at: Date | null; cursor: string; enabled: boolean }[]
    >('SELECT attempts, next_attempt_at, cursor, enabled FROM webhook_endpoints WHERE id = $1', [
      byIp,
    ]);
    // A failure like any other: the event stays at the head and the retry is scheduled.
    expect(row.attempts).toBe(1);
    expect(row.enabled).toBe(true);
    expect(row.cursor).not.toBe(event);
    expect(row.next_attempt_at!.getTime()).toBeGreaterThan(clock.now().getTime());

    const byName = await endpointAt(receiver.url('/in').replace('127.0.0.1', 'localhost'));
    await record();
    await round();
    expect(receiver.received).toEqual([]);
    expect((await log(byName))[0].error).toMatch(/^address not allowed: localhost resolves to /);
  });

  it('the cloud metadata address and an IPv4-mapped RFC 1918 address are refused (not on the list)', async () => {
    const metadata = await endpointAt('https://169.254.169.254/latest');
    const internal = await endpointAt('https://[::ffff:10.0.0.1]/in');
    await record();
    await round();
    expect((await log(metadata))[0]).toEqual({
      status_code: null,
      error: 'address not allowed: 169.254.169.254 resolves to 169.254.169.254',
    });
    expect((await log(internal))[0]).toEqual({
      status_code: null,
      error: 'address not allowed: ::ffff:a00:1 resolves to ::ffff:a00:1',
    });
  });
});
