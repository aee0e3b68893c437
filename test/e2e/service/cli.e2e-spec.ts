import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser, runInApp } from '../../factories';
import { consoleSession } from '../../support/console';
import { beginConfirmation, newAuthenticator, registerPasskey } from '../../support/passkeys';
import { childEnv, runCli, spawnTs } from '../../support/cli';
import { embeddedCopy } from '../../support/embedded-templates';
import { createTestApp, TestApp } from '../../support/test-app';

const KEY = /^svc_live_[0-9A-Za-z]{32}$/;

/** Parses stdout that must be exactly one JSON object and nothing else. */
function onlyJson(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.trim().split('\n')).toHaveLength(1);
  const value: unknown = JSON.parse(stdout);
  expect(value).toEqual(expect.any(Object));
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
}

describe('admin CLI commands (--json output)', () => {
  let t: TestApp;
  const cli = async (...argv: string[]) => runInApp(t.app, argv);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('creates secret and none applications; the secret is shown once', async () => {
    const secret = await cli(
      'app',
      'create',
      '--name',
      'Web',
      '--redirect-uri',
      'https://web.example/cb',
      '--redirect-uri',
      'https://web.example/cb2',
      '--description',
      'D',
      '--home-url',
      'https://web.example',
      '--json',
    );
    expect(secret.exitCode).toBe(0);
    const created = onlyJson(secret.stdout);
    expect(created).toEqual({
      id: 1,
      clientId: expect.stringMatching(/^[0-9A-Za-z]{24}$/),
      clientSecret: expect.stringMatching(/^[0-9A-Za-z]{48}$/),
    });

    const pub = onlyJson(
      (
        await cli(
          'app',
          'create',
          '--name',
          'Mobile',
          '--redirect-uri',
          'com.example.app:/cb',
          '--auth-method',
          'none',
          '--sign-up',
          '--json',
        )
      ).stdout,
    );
    expect(pub).toEqual({ id: 2, clientId: expect.any(String), clientSecret: null });

    const list = onlyJson((await cli('app', 'list', '--json')).stdout);
    expect(list.items).toEqual([
      expect.objectContaining({
        id: 1,
        name: 'Web',
        clientAuthMethod: 'secret',
        redirectUris: ['https://web.example/cb', 'https://web.example/cb2'],
        signUpEnabled: false,
      }),
      expect.objectContaining({
        id: 2,
        name: 'Mobile',
        clientAuthMethod: 'none',
        redirectUris: ['com.example.app:/cb'],
        signUpEnabled: true,
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(String(created.clientSecret));
  });

  it('creates, lists, rotates, revokes and deletes keys', async () => {
    await cli('app', 'create', '--name', 'A', '--redirect-uri', 'https://a.example/cb', '--json');
    const created = onlyJson(
      (
        await cli(
          'key',
          'create',
          '--app',
          '1',
          '--scopes',
          'user:read,stats:read',
          '--name',
          'backend',
          '--json',
        )
      ).stdout,
    );
    expect(created).toEqual({
      id: 1,
      key: expect.stringMatching(KEY),
      keyPrefix: String(created.key).slice(0, 12),
      scopes: ['user:read', 'stats:read'],
    });

    const empty = onlyJson(
      (await cli('key', 'create', '--app', '1', '--scopes', '', '--name', 'no scopes', '--json'))
        .stdout,
    );
    expect(empty.scopes).toEqual([]);

    const rotated = onlyJson((await cli('key', 'rotate', '1', '--json')).stdout);
    expect(rotated).toEqual({
      id: 3,
      key: expect.stringMatching(KEY),
      keyPrefix: String(rotated.key).slice(0, 12),
      scopes: ['user:read', 'stats:read'],
    });
    expect(rotated.key).not.toBe(created.key);

    expect(onlyJson((await cli('key', 'revoke', '2', '--json')).stdout)).toEqual({
      id: 2,
      status: 'revoked',
    });
    expect(onlyJson((await cli('key', 'delete', '3', '--json')).stdout)).toEqual({
      id: 3,
      deleted: true,
    });

    const list = onlyJson((await cli('key', 'list', '--app', '1', '--json')).stdout);
    expect(list.items).toEqual([
      expect.objectContaining({
        id: 1,
        status: 'active',
        expiresAt: expect.any(String),
        keyPrefix: String(created.key).slice(0, 12),
      }),
      expect.objectContaining({ id: 2, status: 'revoked', expiresAt: null }),
    ]);
  });

  it('creates users', async () => {
    const res = await cli(
      'user',
      'create',
      '--username',
      'alice',
      '--email',
      'Alice@Example.org',
      '--email-verified',
      '--nickname',
      'Al',
      '--json',
    );
    expect(onlyJson(res.stdout)).toEqual({ id: 1, username: 'alice' });
    const rows = await t.dataSource.query(
      'SELECT email, email_verified, nickname, password_hash FROM users',
    );
    expect(rows).toEqual([
      { email: 'alice@example.org', email_verified: true, nickname: 'Al', password_hash: null },
    ]);
  });

  it('refuses a taken username or email with conflict, also when two creations race', async () => {
    await cli('user', 'create', '--username', 'carol', '--email', 'carol@example.org', '--json');
    const sameEmail = await cli(
      'user',
      'create',
      '--username',
      'carol2',
      '--email',
      'Carol@Example.org',
      '--json',
    );
    expect(onlyJson(sameEmail.stdout)).toEqual({
      error: 'conflict',
      message: 'username or email already in use',
    });

    const raced = await Promise.all(
      ['d1@example.org', 'd2@example.org'].map((email) =>
        cli('user', 'create', '--username', 'dave', '--email', email, '--json'),
      ),
    );
    expect(raced.map((r) => r.exitCode).sort()).toEqual([0, 1]);
    expect(raced.map((r) => onlyJson(r.stdout).error ?? 'created').sort()).toEqual([
      'conflict',
      'created',
    ]);
    const rows = await t.dataSource.query(
      "SELECT count(*)::int AS n FROM users WHERE username = 'dave'",
    );
    expect(rows[0].n).toBe(1);
  });

  it('removes the passkeys of an account that lost them, audited without an actor', async () => {
    const alice = await createUser(t.app, { username: 'alice', email: 'alice@example.org' });
    const bob = await createUser(t.app, { username: 'bob', email: 'bob@example.org' });
    const console = await consoleSession(t, alice.id);
    const first = await registerPasskey(console, newAuthenticator(), { name: 'Lost phone' });
    const bobs = await registerPasskey(await consoleSession(t, bob.id), newAuthenticator());
    // A confirmation started with the lost passkey does not outlive it.
    await beginConfirmation(console, { action: 'passkey.register' });

    const res = await cli('user', 'passkeys', 'remove', '--user', 'ALICE', '--json');
    expect(res.exitCode).toBe(0);
    expect(onlyJson(res.stdout)).toEqual({
      userId: Number(alice.id),
      username: 'alice',
      removed: 1,
      passkeys: [{ id: first.id, name: 'Lost phone' }],
    });
    const left = await t.dataSource.query<{ id: string; user_id: string }[]>(
      'SELECT id, user_id::text FROM passkey_credentials',
    );
    expect(left).toEqual([{ id: bobs.id, user_id: bob.id }]);
    const ceremonies = await t.dataSource.query<unknown[]>(
      'SELECT 1 FROM passkey_ceremonies WHERE user_id = $1',
      [alice.id],
    );
    expect(ceremonies).toEqual([]);
    const audit = await t.dataSource.query<Record<string, unknown>[]>(
      'SELECT application_id, actor_user_id, action, target, details, ip FROM audit_log WHERE action = $1',
      ['passkey.remove_all'],
    );
    expect(audit).toEqual([
      {
        application_id: null,
        actor_user_id: null,
        action: 'passkey.remove_all',
        target: `user:${alice.id}`,
        details: { via: 'cli', removed: 1, passkeyIds: [first.id] },
        ip: '',
      },
    ]);
    // The next passkey is a first one again: a fresh password sign-in registers it.
    await console.request('post', '/api/console/account/passkeys/options').send({}).expect(200);

    const byId = await cli('user', 'passkeys', 'remove', '--user', bob.id);
    expect([byId.exitCode, byId.stdout]).toEqual([0, expect.stringContaining('removed: 1')]);
    const unknown = await cli('user', 'passkeys', 'remove', '--user', 'nobody', '--json');
    expect([unknown.exitCode, onlyJson(unknown.stdout).error]).toEqual([1, 'not_found']);
    const usage = await cli('user', 'passkeys', 'remove', '--json');
    expect([usage.exitCode, onlyJson(usage.stdout)]).toEqual([
      2,
      { error: 'usage', message: '--user is required' },
    ]);
  });

  it('reports failures as one JSON object and a non-zero exit', async () => {
    const usage = await cli('key', 'create', '--app', 'x', '--name', 'k', '--json');
    expect(usage.exitCode).toBe(2);
    expect(onlyJson(usage.stdout)).toEqual({
      error: 'usage',
      message: '--app must be a positive integer',
    });

    const unknownScope = await cli(
      'app',
      'create',
      '--name',
      'A',
      '--redirect-uri',
      'https://a.example/cb',
      '--json',
    ).then(() => cli('key', 'create', '--app', '1', '--scopes', 'root', '--name', 'k', '--json'));
    expect(unknownScope.exitCode).toBe(1);
    expect(onlyJson(unknownScope.stdout)).toEqual({
      error: 'invalid_request',
      message: 'Unknown scopes: root',
    });

    const badRedirect = await cli(
      'app',
      'create',
      '--name',
      'A',
      '--redirect-uri',
      'http://evil.example/cb',
      '--json',
    );
    expect(badRedirect.exitCode).toBe(1);
    expect(onlyJson(badRedirect.stdout).error).toBe('invalid_request');

    const missingApp = await cli('key', 'list', '--app', '99', '--json');
    expect(onlyJson(missingApp.stdout)).toEqual({
      error: 'not_found',
      message: 'Application not found',
    });

    const duplicate = await cli(
      'user',
      'create',
      '--username',
      'bob',
      '--email',
      'b@example.org',
      '--json',
    ).then(() =>
      cli('user', 'create', '--username', 'bob', '--email', 'other@example.org', '--json'),
    );
    expect(onlyJson(duplicate.stdout).error).toBe('conflict');
  });
});

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

// The README quickstart as a user types it: the real CLI process, on the embedded default.
describe('admin CLI as a process on the embedded database', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  beforeEach(() => {
    // The run's new, unmigrated cluster: the first command still migrates it, as a new user's
    // does, without PGlite's initdb (seconds of CPU; .ci/quickstart-smoke.sh runs the real one).
    dataDir = embeddedCopy('empty')?.dataDir ?? mkdtempSync(join(tmpdir(), 'cli-e2e-'));
  });
  afterEach(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((done) => server!.once('exit', done));
    }
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('works without a running service, then through the running service', async () => {
    const env = childEnv({ EMBEDDED_DATA_DIR: dataDir });
    const app = await runCli(
      ['app', 'create', '--name', 'Demo', '--redirect-uri', 'http://localhost:8080/cb', '--json'],
      env,
    );
    expect(app.code).toBe(0);
    expect(onlyJson(app.stdout)).toEqual({
      id: 1,
      clientId: expect.any(String),
      clientSecret: expect.any(String),
    });

    const port = await freePort();
    server = spawnTs('src/main.ts', [], { ...env, PORT: String(port) });
    let log = '';
    server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`service did not start: ${log}`)), 150_000);
      server!.stderr!.on('data', () => {
        if (log.includes('listening on')) {
          clearTimeout(timer);
          done();
        }
      });
    });

    // The service holds the data directory now; the CLI hands its command to it.
    const key = await runCli(
      ['key', 'create', '--app', '1', '--scopes', 'user:read', '--name', 'quickstart', '--json'],
      env,
    );
    expect(key.code).toBe(0);
    const { key: plaintext } = onlyJson(key.stdout);
    expect(plaintext).toMatch(KEY);

    const res = await fetch(`http://127.0.0.1:${port}/api/v1/app/me`, {
      headers: { Authorization: `Bearer ${String(plaintext)}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { app: { name: string }; apiKey: { name: string } };
    expect([body.app.name, body.apiKey.name]).toEqual(['Demo', 'quickstart']);

    // A second service on the same directory refuses to start, naming the holder.
    const second = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawnTs('src/main.ts', [], { ...env, PORT: String(port + 1) });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`is in use by process ${server.pid}`);
    // Four processes, each compiling the TypeScript and booting PGlite: a bound for a busy CI
    // machine (a CPU-starved run took 49 s of the default 60 s), not a latency expectation.
  }, 300_000);
});
