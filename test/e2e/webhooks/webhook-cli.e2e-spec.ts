import { createApplication, runInApp } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

function onlyJson(stdout: string): Record<string, unknown> {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The admin CLI's webhook commands (docs/webhooks.md, "Administration"). */
describe('admin CLI: webhooks', () => {
  let t: TestApp;
  let appId: string;
  const cli = (...argv: string[]) => runInApp(t.app, argv);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    appId = String((await createApplication(t.app)).application.id);
  });

  it('adds (secret printed once, encrypted at rest), lists, disables, enables and removes', async () => {
    const added = await cli(
      'webhook',
      'add',
      '--app',
      appId,
      '--url',
      'https://hooks.example/in',
      '--events',
      'token_issued,code_issued',
      '--description',
      'Billing',
      '--json',
    );
    expect(added.exitCode).toBe(0);
    const endpoint = onlyJson(added.stdout);
    expect(endpoint).toEqual(
      expect.objectContaining({
        url: 'https://hooks.example/in',
        events: ['token_issued', 'code_issued'],
        description: 'Billing',
        enabled: true,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      }),
    );
    const [row] = await t.dataSource.query<{ secret: string }[]>(
      'SELECT secret FROM webhook_endpoints',
    );
    expect(row.secret).not.toContain(String(endpoint.secret).slice(6));

    const list = onlyJson((await cli('webhook', 'list', '--app', appId, '--json')).stdout);
    expect(list.items).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
    expect(JSON.stringify(list)).not.toContain('whsec_');

    const id = String(endpoint.id);
    const disabled = await cli('webhook', 'disable', id, '--json');
    expect(onlyJson(disabled.stdout)).toEqual(expect.objectContaining({ enabled: false }));
    const enabled = await cli('webhook', 'enable', id, '--json');
    expect(onlyJson(enabled.stdout)).toEqual(expect.objectContaining({ enabled: true }));
    expect(onlyJson((await cli('webhook', 'remove', id, '--json')).stdout)).toEqual({
      id: endpoint.id,
      removed: true,
    });
    const audit = await t.dataSource.query<{ action: string; target: string; via: string }[]>(
      `SELECT action, target, details->>'via' AS via FROM audit_log ORDER BY id`,
    );
    expect(audit).toEqual(
      ['webhook.create', 'webhook.disable', 'webhook.enable', 'webhook.delete'].map((action) => ({
        action,
        target: `webhook:${id}`,
        via: 'cli',
      })),
    );
    expect(JSON.stringify(audit)).not.toContain('whsec_');
    const gone = await cli('webhook', 'remove', id, '--json');
    expect(gone.exitCode).toBe(1);
    expect(onlyJson(gone.stdout)).toEqual(expect.objectContaining({ error: 'not_found' }));
  });

  it.each([
    ['http off loopback', 'http://hooks.example/in', 'insecure_endpoint'],
    [
      'http on loopback without WEBHOOKS_ALLOW_INSECURE',
      'http://127.0.0.1:9/in',
      'insecure_endpoint',
    ],
    [
      'http on localhost without WEBHOOKS_ALLOW_INSECURE',
      'http://localhost:9/in',
      'insecure_endpoint',
    ],
    ['another scheme', 'ftp://hooks.example/in', 'invalid_request'],
    ['not a URL', 'hooks.example/in', 'invalid_request'],
    ['credentials in the URL', 'https://user:pw@hooks.example/in', 'invalid_request'],
  ])('refuses %s with %s, exit 1, nothing stored', async (_what, url, code) => {
    const result = await cli('webhook', 'add', '--app', appId, '--url', url, '--json');
    expect(result.exitCode).toBe(1);
    expect(onlyJson(result.stdout)).toEqual(expect.objectContaining({ error: code }));
    expect(await t.dataSource.query('SELECT id FROM webhook_endpoints')).toEqual([]);
  });

  it('refuses an unknown event type, an unknown application and an 11th endpoint', async () => {
    const url = ['--url', 'https://hooks.example/in', '--json'];
    const badType = await cli('webhook', 'add', '--app', appId, '--events', 'token_eaten', ...url);
    expect(onlyJson(badType.stdout)).toEqual(expect.objectContaining({ error: 'invalid_request' }));
    const noApp = await cli('webhook', 'add', '--app', '999', ...url);
    expect(onlyJson(noApp.stdout)).toEqual(expect.objectContaining({ error: 'not_found' }));
    for (let i = 0; i < 10; i += 1) {
      expect((await cli('webhook', 'add', '--app', appId, ...url)).exitCode).toBe(0);
    }
    const eleventh = await cli('webhook', 'add', '--app', appId, ...url);
    expect(eleventh.exitCode).toBe(1);
    expect(onlyJson(eleventh.stdout)).toEqual(expect.objectContaining({ error: 'conflict' }));
  });

  it('accepts http on a loopback host when WEBHOOKS_ALLOW_INSECURE=true', async () => {
    const insecure = await createTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
    try {
      const app = String((await createApplication(insecure.app)).application.id);
      const add = (url: string) =>
        runInApp(insecure.app, ['webhook', 'add', '--app', app, '--url', url, '--json']);
      const result = await add('http://127.0.0.1:9/in');
      expect(result.exitCode).toBe(0);
      const refused = await add('http://hooks.example/in');
      expect(onlyJson(refused.stdout)).toEqual(
        expect.objectContaining({ error: 'insecure_endpoint' }),
      );
    } finally {
      await insecure.close();
    }
  });

  it('updates the URL, the event types and the description, each audited', async () => {
    const added = onlyJson(
      (await cli('webhook', 'add', '--app', appId, '--url', 'https://hooks.example/in', '--json'))
        .stdout,
    );
    const id = String(added.id);
    const refused = await cli(
      'webhook',
      'update',
      id,
      '--url',
      'http://hooks.example/x',
      '--events',
      'code_issued',
      '--json',
    );
    expect(onlyJson(refused.stdout)).toEqual(
      expect.objectContaining({ error: 'insecure_endpoint' }),
    );
    const badType = await cli(
      'webhook',
      'update',
      id,
      '--url',
      'https://new.example/in',
      '--events',
      'token_eaten',
      '--json',
    );
    expect(onlyJson(badType.stdout)).toEqual(expect.objectContaining({ error: 'invalid_request' }));
    expect((await cli('webhook', 'update', id, '--json')).exitCode).toBe(2);

    const updated = await cli(
      'webhook',
      'update',
      id,
      '--url',
      'https://new.example/in',
      '--events',
      'code_issued',
      '--description',
      'Audit',
      '--json',
    );
    expect(updated.exitCode).toBe(0);
    expect(onlyJson(updated.stdout)).toEqual(
      expect.objectContaining({
        url: 'https://new.example/in',
        events: ['code_issued'],
        description: 'Audit',
      }),
    );
    const all = onlyJson((await cli('webhook', 'update', id, '--events', '', '--json')).stdout);
    expect(all.events).toEqual([]);
    const audit = await t.dataSource.query<{ action: string; details: object }[]>(
      `SELECT action, details FROM audit_log ORDER BY id`,
    );
    expect(audit.slice(1)).toEqual([
      {
        action: 'webhook.update',
        details: { via: 'cli', eventTypes: ['code_issued'], description: 'Audit' },
      },
      {
        action: 'webhook.update_url',
        details: {
          via: 'cli',
          url: 'https://new.example/in',
          previousUrl: 'https://hooks.example/in',
        },
      },
      { action: 'webhook.update', details: { via: 'cli', eventTypes: [] } },
    ]);
  });

  it('replays, sends a test event and lists the delivery log', async () => {
    // A private address: the attempt is refused at once, and logged like any failure.
    const added = onlyJson(
      (await cli('webhook', 'add', '--app', appId, '--url', 'https://10.0.0.1/in', '--json'))
        .stdout,
    );
    const id = String(added.id);
    const tested = await cli('webhook', 'test', id, '--json');
    expect(tested.exitCode).toBe(0);
    expect(onlyJson(tested.stdout)).toEqual(
      expect.objectContaining({
        kind: 'test',
        eventId: null,
        statusCode: null,
        error: expect.stringContaining('address not allowed'),
      }),
    );
    const log = onlyJson((await cli('webhook', 'deliveries', id, '--json')).stdout);
    expect(log.items).toEqual([expect.objectContaining({ kind: 'test', eventId: null })]);

    const replayed = await cli(
      'webhook',
      'replay',
      id,
      '--from-time',
      '2020-01-01T00:00:00Z',
      '--json',
    );
    expect(replayed.exitCode).toBe(0);
    expect(onlyJson(replayed.stdout)).toEqual(
      expect.objectContaining({ id: added.id, events: 0, lastDeliveredEventId: 0 }),
    );
    const unknown = await cli('webhook', 'replay', id, '--from-event', '999', '--json');
    expect(onlyJson(unknown.stdout)).toEqual(expect.objectContaining({ error: 'not_found' }));
    for (const args of [
      [],
      ['--from-event', '1', '--from-time', '2020-01-01T00:00:00Z'],
      ['--from-event', 'x'],
      ['--from-time', 'yesterday'],
    ]) {
      const usage = await cli('webhook', 'replay', id, ...args, '--json');
      expect([args, usage.exitCode]).toEqual([args, 2]);
    }
    const audit = await t.dataSource.query<{ action: string }[]>(
      `SELECT action FROM audit_log ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual([
      'webhook.create',
      'webhook.test',
      'webhook.replay',
    ]);
  });
});
