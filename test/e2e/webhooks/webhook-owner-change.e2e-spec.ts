import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { useWebhookBed } from '../../support/webhook-bed';

const HOUR = 3600_000;

/**
 * An owner's change wins over an attempt in flight (docs/webhooks.md, "Guarantees"): the
 * receiver holds its answer while the owner disables the endpoint, then fails; the attempt's
 * bookkeeping writes nothing, the endpoint stays disabled and receives nothing more, and the
 * audit log holds only the owner's entries.
 */
describe('webhooks: an owner change during an attempt in flight', () => {
  const bed = useWebhookBed();
  const { clock, receiver, record, round } = bed;
  const endpoints = () => bed.t.app.get(WebhookEndpointsService);

  const state = async (id: number) => {
    const [row] = await bed.t.dataSource.query<
      { enabled: boolean; disabled_reason: string | null; attempts: number }[]
    >('SELECT enabled, disabled_reason, attempts FROM webhook_endpoints WHERE id = $1', [id]);
    return row;
  };
  const audit = (id: number) =>
    bed.t.dataSource.query<{ action: string; via: string }[]>(
      `SELECT action, details->>'via' AS via FROM audit_log WHERE target = $1 ORDER BY id`,
      [`webhook:${id}`],
    );

  /** Disables the endpoint while its receiver holds the answer `status`, then lets it answer. */
  async function disableDuringAttempt(path: string, status: number): Promise<number> {
    const { id } = await bed.addEndpoint(path);
    let answer!: () => void;
    receiver.script(path, { status, until: new Promise((done) => (answer = done)) });
    const arrived = receiver.nextRequest();
    await record();
    const attempt = round();
    await arrived;
    await endpoints().update(id, { enabled: false });
    answer();
    await attempt;
    return id;
  }

  it('stays disabled when the attempt in flight then fails, and receives nothing more', async () => {
    const id = await disableDuringAttempt('/held', 500);

    expect(await state(id)).toEqual({ enabled: false, disabled_reason: null, attempts: 0 });
    await record();
    clock.advance(HOUR);
    expect(await round()).toBe(0);
    expect(receiver.ids('/held')).toHaveLength(1);
    expect(await audit(id)).toEqual([
      { action: 'webhook.create', via: 'cli' },
      { action: 'webhook.disable', via: 'cli' },
    ]);
  });

  it('records no disable of its own when the attempt in flight then answers 410 Gone', async () => {
    const id = await disableDuringAttempt('/gone', 410);

    expect(await state(id)).toEqual({ enabled: false, disabled_reason: null, attempts: 0 });
    expect(await audit(id)).toEqual([
      { action: 'webhook.create', via: 'cli' },
      { action: 'webhook.disable', via: 'cli' },
    ]);
  });

  it('sends the held event again after re-enabling, a 2xx in flight during the disable having moved nothing', async () => {
    const { id } = await bed.addEndpoint('/ok');
    let answer!: () => void;
    receiver.script('/ok', { status: 200, until: new Promise((done) => (answer = done)) });
    const arrived = receiver.nextRequest();
    const event = await record();
    const attempt = round();
    await arrived;
    await endpoints().update(id, { enabled: false });
    answer();
    await attempt;
    await endpoints().update(id, { enabled: true });
    await round();

    // At least once: the event whose 2xx came after the disable is sent again, same webhook-id.
    expect(receiver.ids('/ok')).toEqual([`evt_${event}`, `evt_${event}`]);
  });

  it('writes nothing for an endpoint deleted while its attempt was in flight', async () => {
    const { id } = await bed.addEndpoint('/deleted');
    let answer!: () => void;
    receiver.script('/deleted', { status: 500, until: new Promise((done) => (answer = done)) });
    const arrived = receiver.nextRequest();
    await record();
    const attempt = round();
    await arrived;
    await endpoints().remove(id);
    answer();
    await attempt;

    const rows = await bed.t.dataSource.query<unknown[]>(
      'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1',
      [id],
    );
    expect(rows).toEqual([]);
  });
});
