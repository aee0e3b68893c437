import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { EventsService } from '../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../src/modules/webhooks/webhook-delivery.service';
import { WebhookEndpointsService } from '../../../src/modules/webhooks/webhook-endpoints.service';
import { createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';
import { ReceivedWebhook, WebhookReceiver } from '../../support/webhook-receiver';

const DOC = join(__dirname, '..', '..', '..', 'docs', 'webhooks.md');
const MINUTE = 60_000;

/**
 * How each language's program in the doc is saved and run. Java is compiled once (javac) rather
 * than launched from source, which would compile it again on every run.
 */
const LANGUAGES = [
  { tag: 'js', file: 'verify.mjs', command: process.execPath, args: ['verify.mjs'] },
  { tag: 'python', file: 'verify.py', command: 'python3', args: ['verify.py'] },
  { tag: 'java', file: 'Verify.java', command: 'java', args: ['-cp', '.', 'Verify'] },
];

/** What a program is given: the secret, the three headers and the raw body. */
interface Check {
  secret: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** The one fenced block of `tag` in the doc. */
function snippet(doc: string, tag: string): string {
  const blocks = [...doc.matchAll(new RegExp(`^\`\`\`${tag}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))];
  expect(blocks).toHaveLength(1);
  return blocks[0][1];
}

/**
 * The standard-library verification programs of docs/webhooks.md ("Verifying with the standard
 * library only"), each taken from the doc as written and run with node, python3 and java
 * against deliveries the service made and the Standard Webhooks library accepted: a valid one is
 * accepted; a changed body, another secret or a timestamp over 5 minutes away is rejected; the
 * two signatures of a rotation are each accepted.
 */
describe('webhooks: the verification programs in the doc', () => {
  const receiver = new WebhookReceiver();
  let t: TestApp;
  let dir: string;
  let single: ReceivedWebhook;
  let rotated: ReceivedWebhook;
  let secret: string;
  let previous: string;
  const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-verify-'));
    const doc = readFileSync(DOC, 'utf8');
    for (const { tag, file } of LANGUAGES) writeFileSync(join(dir, file), snippet(doc, tag));
    const javac = await run('javac', ['Verify.java'], dir, null);
    expect(javac).toMatchObject({ code: 0, stderr: '' });

    await receiver.start();
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
    await t.truncate();
    const appId = (await createApplication(t.app)).application.id;
    const endpoints = t.app.get(WebhookEndpointsService);
    const created = await endpoints.create({
      applicationId: appId,
      url: receiver.url('/hooks'),
      eventTypes: [],
    });
    previous = created.secret;
    const deliver = async (): Promise<ReceivedWebhook> => {
      await t.dataSource.transaction((m) =>
        t.app
          .get(EventsService)
          .record(m, { applicationId: appId, eventType: 'token_issued', userId: '7' }),
      );
      await t.app.get(WebhookDeliveryService).runRound();
      return receiver.received[receiver.received.length - 1];
    };
    receiver.trust('/hooks', previous);
    single = await deliver();
    secret = (await endpoints.rotateSecret(created.endpoint.id)).secret;
    receiver.trust('/hooks', secret);
    rotated = await deliver();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.rejected).toEqual([]);
    expect(single.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(rotated.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const asReceived = (delivery: ReceivedWebhook, withSecret: string): Check => ({
    secret: withSecret,
    id: String(delivery.headers['webhook-id']),
    timestamp: String(delivery.headers['webhook-timestamp']),
    signature: String(delivery.headers['webhook-signature']),
    body: delivery.raw,
  });

  /** The delivery signed again, correctly, as if made at `at` (the library's own signing). */
  const signedAt = (delivery: ReceivedWebhook, at: Date): Check => ({
    ...asReceived(delivery, previous),
    timestamp: String(Math.floor(at.getTime() / 1000)),
    signature: new Webhook(previous).sign(String(delivery.headers['webhook-id']), at, delivery.raw),
  });

  describe.each(LANGUAGES)('$tag ($file)', ({ file, command, args }) => {
    /** The program's verdict: its output and exit code must agree. */
    async function verdict(check: Check): Promise<'valid' | 'invalid'> {
      const { code, stdout, stderr } = await run(command, args, dir, check);
      const said = stdout.trim();
      if (!((said === 'valid' && code === 0) || (said === 'invalid' && code === 1))) {
        throw new Error(`${file} exited ${code}: ${stdout}${stderr}`);
      }
      return said;
    }

    it('accepts a delivery as it arrived, and rejects it with a changed body or another secret', async () => {
      expect(await verdict(asReceived(single, previous))).toBe('valid');
      const body = single.raw.replace('"token_issued"', '"token_revoked"');
      expect(body).not.toBe(single.raw);
      expect(await verdict({ ...asReceived(single, previous), body })).toBe('invalid');
      expect(await verdict(asReceived(single, other))).toBe('invalid');
    });

    it('rejects a correct signature whose timestamp is more than 5 minutes away', async () => {
      const now = Date.now();
      expect(await verdict(signedAt(single, new Date(now - 4 * MINUTE)))).toBe('valid');
      expect(await verdict(signedAt(single, new Date(now - 6 * MINUTE)))).toBe('invalid');
      expect(await verdict(signedAt(single, new Date(now + 6 * MINUTE)))).toBe('invalid');
    });

    it('accepts the two-signature header of a rotation with either secret', async () => {
      expect(await verdict(asReceived(rotated, secret))).toBe('valid');
      expect(await verdict(asReceived(rotated, previous))).toBe('valid');
      expect(await verdict(asReceived(rotated, other))).toBe('invalid');
    });
  });
});

/** Runs a program with the check's secret and headers in its environment, the body on stdin. */
function run(
  command: string,
  args: string[],
  cwd: string,
  check: Check | null,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      WEBHOOK_SECRET: check?.secret,
      WEBHOOK_ID: check?.id,
      WEBHOOK_TIMESTAMP: check?.timestamp,
      WEBHOOK_SIGNATURE: check?.signature,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(Buffer.from(check?.body ?? '', 'utf8'));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
