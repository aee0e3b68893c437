import { version } from '../../../package.json';
import { MIGRATIONS } from '../../../src/database/migrations';
import { runInApp } from '../../factories';
import { childEnv, runCli, spawnTs } from '../../support/cli';
import { processDatabase, type ProcessDatabase } from '../../support/process-database';
import { freePort } from '../../support/redis-server';
import { createTestApp, type TestApp } from '../../support/test-app';

const LAST_MIGRATION = MIGRATIONS.at(-1)!.name;

/** `identity-cli status` as an operator runs it (docs/operations.md, "CLI status"). */
describe('CLI status', () => {
  let database: ProcessDatabase;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    database = await processDatabase();
    env = childEnv({ ...database.env, REDIS_URL: process.env.REDIS_URL });
  });
  afterEach(() => database.drop());

  const status = async (...argv: string[]) => {
    const result = await runCli(['status', ...argv], env);
    return { ...result, report: argv.includes('--json') ? JSON.parse(result.stdout) : undefined };
  };
  /** Runs one CLI command in `t`, as the CLI process would; its JSON output. */
  const inApp =
    (t: TestApp) =>
    async (...argv: string[]) => {
      const result = await runInApp(t.app, [...argv, '--json']);
      expect(result).toMatchObject({ exitCode: 0 });
      return JSON.parse(result.stdout);
    };
  /**
   * Prepares the database with the CLI's own commands, run in an app on that database (closed
   * before `status` opens it) rather than one process each: what is under test is `status` as a
   * process, and every process start costs a second or more of CPU.
   */
  const prepare = async <T>(work: (cli: ReturnType<typeof inApp>) => Promise<T>): Promise<T> => {
    const t = await createTestApp({
      env: { ...database.env, WEBHOOKS_ALLOW_INSECURE: env.WEBHOOKS_ALLOW_INSECURE ?? 'false' },
    });
    try {
      return await work(inApp(t));
    } finally {
      await t.close();
    }
  };

  it('reports a healthy instance: exit 0, one JSON object, and readable lines without --json', async () => {
    const keys = await prepare(async (cli) => {
      await cli('signing-key', 'rotate');
      return cli('signing-key', 'rotate');
    });
    const { code, report, stdout } = await status('--json');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(report).toEqual({
      ok: true,
      problems: [],
      service: { version, node: process.versions.node },
      database: {
        kind: process.env.DATABASE_URL ? 'external' : 'embedded',
        reachable: true,
        serverVersion: expect.stringMatching(/^\d+\.\d+/),
      },
      migrations: { applied: MIGRATIONS.length, lastApplied: LAST_MIGRATION, pending: [] },
      redis: process.env.REDIS_URL
        ? { configured: true, reachable: true, pingMs: expect.any(Number) }
        : { configured: false, reachable: null, pingMs: null },
      signingKeys: {
        active: { kid: keys.active, alg: 'RS256', activatedAt: expect.any(String), ageDays: 0 },
        nextKid: keys.next,
        retired: 1,
      },
      webhooks: { enabled: 0, disabled: 0, failing: 0, worstLag: null },
    });

    const human = await status();
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`service:      ${version} (Node ${process.versions.node})`);
    expect(human.stdout).toContain(
      `${MIGRATIONS.length} applied (last ${LAST_MIGRATION}), none pending`,
    );
    expect(human.stdout).toContain(
      `signing keys: active ${keys.active} (RS256, 0 days old), next ${keys.next}, 1 retired`,
    );
    expect(human.stdout.trimEnd().endsWith('OK')).toBe(true);
  });

  it('names a pending migration and exits 1', async () => {
    await database.withDataSource((dataSource) => dataSource.undoLastMigration());
    const { code, report } = await status('--json');
    expect(code).toBe(1);
    expect(report).toMatchObject({
      ok: false,
      problems: [`migrations pending: ${LAST_MIGRATION}`],
      migrations: { applied: MIGRATIONS.length - 1, pending: [LAST_MIGRATION] },
    });
    const human = await status();
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`1 PENDING: ${LAST_MIGRATION}`);
    expect(human.stdout).toContain(`PROBLEMS:\n  - migrations pending: ${LAST_MIGRATION}`);
  });

  it('reports a Redis that does not answer, and exits 1', async () => {
    env.REDIS_URL = `redis://127.0.0.1:${await freePort()}/0`;
    const { code, report } = await status('--json');
    expect(code).toBe(1);
    expect(report).toMatchObject({
      ok: false,
      problems: ['redis: unreachable'],
      database: { reachable: true },
      redis: { configured: true, reachable: false, pingMs: null },
    });
  });

  it('reports a database it cannot open, with the rest it could still check', async () => {
    env = childEnv({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
      REDIS_URL: undefined,
    });
    const { code, report } = await status('--json');
    expect(code).toBe(1);
    expect(report).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^database: .*ECONNREFUSED/)],
      service: { version },
      database: { kind: 'external', reachable: false, serverVersion: null },
      migrations: null,
      signingKeys: null,
      webhooks: null,
    });
  });

  it('names a bad DATABASE_URL without printing it, neither status --json nor the service', async () => {
    const password = 'db-password-0b7e5f';
    // An underscore in the host name: not a URL address (the variable and the rule are reported).
    env = childEnv({ DATABASE_URL: `postgres://idsvc:${password}@db_host:5432/idsvc` });
    const cli = await status('--json');
    expect(cli.code).toBe(1);
    expect(cli.report).toEqual({
      error: 'cli_failed',
      message: expect.stringContaining('DATABASE_URL: must be a URL address'),
    });

    const service = spawnTs('src/main.ts', [], { ...env, PORT: '0' });
    let output = '';
    service.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => service.on('close', done));
    expect(code).toBe(1);
    expect(output).toContain('DATABASE_URL: must be a URL address');

    for (const printed of [cli.stdout, cli.stderr, output]) {
      expect(printed).not.toContain(password);
      expect(printed).not.toContain('db_host');
    }
  });

  it('shows the lag of a disabled endpoint behind the events committed since', async () => {
    env.WEBHOOKS_ALLOW_INSECURE = 'true';
    const { hook, seeded } = await prepare(async (cli) => {
      const app = await cli(
        'app',
        'create',
        '--name',
        'Lagging',
        '--redirect-uri',
        'https://a.example/cb',
      );
      const hook = await cli(
        'webhook',
        'add',
        '--app',
        String(app.id),
        '--url',
        'http://127.0.0.1:9/hook',
      );
      await cli('webhook', 'add', '--app', String(app.id), '--url', 'http://127.0.0.1:9/other');
      await cli('webhook', 'disable', String(hook.id));
      const seeded = await cli('seed', '--app', String(app.id), '--users', '3', '--days', '2');
      return { hook, seeded };
    });

    const { code, report } = await status('--json');
    // Lag is the applications' business: reported, not a failure of the service.
    expect(code).toBe(0);
    expect(report.webhooks).toEqual({
      enabled: 1,
      disabled: 1,
      failing: 0,
      worstLag: { endpointId: hook.id, events: seeded.events, seconds: expect.any(Number) },
    });
    // Seeded events are spread over the last 2 days: the oldest is hours behind.
    expect(report.webhooks.worstLag.seconds).toBeGreaterThan(60);
    const human = (await status()).stdout;
    expect(human).toContain(
      `webhooks:     1 enabled, 1 disabled, 0 failing; worst lag: endpoint ${hook.id}, ${seeded.events} events`,
    );
    // Nothing signed a token or served the JWKS yet: no keys, and the line says when they come.
    expect(report.signingKeys).toEqual({ active: null, nextKid: null, retired: 0 });
    expect(human).toContain(
      'signing keys: none yet (made at first use: the first id_token signed or JWKS served), next none, 0 retired',
    );
  });
});
