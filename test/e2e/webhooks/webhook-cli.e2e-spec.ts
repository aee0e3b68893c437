import { runCommand } from '../../../src/cli/run-command';
import { adminCommands, createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

function onlyJson(stdout: string): Record<string, unknown> {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The admin CLI's webhook commands (docs/webhooks.md, "Administration"). */
describe('admin CLI: webhooks', () => {
  let t: TestApp;
  let appId: string;
  const cli = (...argv: string[]) => runCommand(argv, () => Promise.resolve(adminCommands(t.app)));
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
      const result = await runCommand(
        ['webhook', 'add', '--app', app, '--url', 'http://127.0.0.1:9/in', '--json'],
        () => Promise.resolve(adminCommands(insecure.app)),
      );
      expect(result.exitCode).toBe(0);
      const refused = await runCommand(
        ['webhook', 'add', '--app', app, '--url', 'http://hooks.example/in', '--json'],
        () => Promise.resolve(adminCommands(insecure.app)),
      );
      expect(onlyJson(refused.stdout)).toEqual(
        expect.objectContaining({ error: 'insecure_endpoint' }),
      );
    } finally {
      await insecure.close();
    }
  });
});
