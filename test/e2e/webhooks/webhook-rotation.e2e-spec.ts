import { Webhook } from 'standardwebhooks';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { runInApp } from '../../factories';
import type { ReceivedWebhook } from '../../support/webhook-receiver';
import { useWebhookBed } from '../../support/webhook-bed';

const HOUR = 3600_000;

/**
 * Secret rotation without downtime (docs/webhooks.md, "Secret rotation"): `webhook rotate-secret`
 * prints a new secret once, and for 24 hours every delivery carries a signature by the new and
 * by the old secret, so a receiver verifying with either accepts it (Standard Webhooks'
 * `Webhook.verify`).
 */
describe('webhooks: secret rotation', () => {
  const bed = useWebhookBed();
  const { clock, receiver, record, round } = bed;
  const cli = (...argv: string[]) => runInApp(bed.t.app, argv);

  const verifies = (secret: string, delivery: ReceivedWebhook): boolean => {
    try {
      new Webhook(secret).verify(delivery.raw, delivery.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };

  async function rotate(id: number): Promise<Record<string, unknown>> {
    const result = await cli('webhook', 'rotate-secret', String(id), '--json');
    expect(result.exitCode).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  it('signs with the old and the new secret for 24 hours, then with the new one only', async () => {
    const { endpoint, secret: oldSecret } = await bed.t.app
      .get(WebhookEndpointsService)
      .create({ applicationId: bed.appId, url: receiver.url('/in'), eventTypes: [] });
    const rotated = await rotate(endpoint.id);
    const newSecret = String(rotated.secret);
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.previousSecretUntil).toBe('2026-05-02T00:00:00.000Z');
    receiver.trust('/in', newSecret);

    await record();
    await round();
    const [during] = receiver.received;
    expect(String(during.headers['webhook-signature'])).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verifies(oldSecret, during)).toBe(true);
    expect(verifies(newSecret, during)).toBe(true);

    clock.advance(24 * HOUR);
    await record();
    await round();
    const after = receiver.received[1];
    expect(String(after.headers['webhook-signature'])).toMatch(/^v1,\S+$/);
    expect(verifies(oldSecret, after)).toBe(false);
    expect(verifies(newSecret, after)).toBe(true);
  });

  it('keeps only the secret just replaced: a second rotation drops the first secret at once', async () => {
    const { endpoint, secret: first } = await bed.t.app
      .get(WebhookEndpointsService)
      .create({ applicationId: bed.appId, url: receiver.url('/in'), eventTypes: [] });
    const second = String((await rotate(endpoint.id)).secret);
    clock.advance(HOUR);
    const third = String((await rotate(endpoint.id)).secret);
    receiver.trust('/in', third);
    await record();
    await round();
    const [delivery] = receiver.received;
    expect(verifies(third, delivery)).toBe(true);
    expect(verifies(second, delivery)).toBe(true);
    expect(verifies(first, delivery)).toBe(false);
  });

  it('is audited without the secret, stores it sealed, and refuses an unknown endpoint', async () => {
    const { endpoint } = await bed.t.app
      .get(WebhookEndpointsService)
      .create({ applicationId: bed.appId, url: receiver.url('/in'), eventTypes: [] });
    const [before] = await bed.t.dataSource.query<{ secret: string }[]>(
      'SELECT secret FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    const rotated = await rotate(endpoint.id);
    const [row] = await bed.t.dataSource.query<{ secret: string; previous_secret: string }[]>(
      'SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(row.previous_secret).toBe(before.secret);
    expect(row.secret).not.toContain(String(rotated.secret).slice(6));
    const audit = await bed.t.dataSource.query<
      { action: string; target: string; details: object }[]
    >("SELECT action, target, details FROM audit_log WHERE action = 'webhook.rotate_secret'");
    expect(audit).toEqual([
      {
        action: 'webhook.rotate_secret',
        target: `webhook:${endpoint.id}`,
        details: { via: 'cli', previousSecretUntil: '2026-05-02T00:00:00.000Z' },
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain('whsec_');

    const missing = await cli('webhook', 'rotate-secret', String(endpoint.id + 1000), '--json');
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).not.toContain('whsec_');
  });
});
