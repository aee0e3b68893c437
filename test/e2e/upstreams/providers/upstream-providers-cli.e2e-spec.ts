import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { runInApp } from '../../../factories';
import { childEnv, runCli } from '../../../support/cli';
import { embeddedCopy } from '../../../support/embedded-templates';
import { createTestApp, TestApp } from '../../../support/test-app';

const SECRET = 'upstream-client-secret-7f3a9c';

function onlyJson(stdout: string): Record<string, unknown> {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('admin CLI: upstream providers', () => {
  let t: TestApp;
  const cli = (...argv: string[]) => runInApp(t.app, argv);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const addGithub = () =>
    cli(
      'upstream',
      'add',
      'github',
      '--kind',
      'github',
      '--name',
      'GitHub',
      '--client-id',
      'Iv1.abc',
      '--client-secret',
      SECRET,
      '--json',
    );

  it('adds, lists, shows, updates and removes; the secret is never printed and is encrypted at rest', async () => {
    const added = await addGithub();
    expect(added.exitCode).toBe(0);
    expect(onlyJson(added.stdout)).toEqual({
      id: 'github',
      name: 'GitHub',
      kind: 'github',
      enabled: true,
      clientId: 'Iv1.abc',
      settings: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const google = await cli(
      'upstream',
      'add',
      'google',
      '--kind',
      'google',
      '--name',
      'Google',
      '--client-id',
      'g.apps',
      '--client-secret',
      SECRET,
      '--json',
    );
    expect(google.exitCode).toBe(0);

    const list = await cli('upstream', 'list', '--json');
    expect(onlyJson(list.stdout).items).toEqual([
      expect.objectContaining({ id: 'github', kind: 'github' }),
      expect.objectContaining({ id: 'google', kind: 'google' }),
    ]);
    const shown = await cli('upstream', 'show', 'github', '--json');
    expect(onlyJson(shown.stdout)).toEqual(expect.objectContaining({ id: 'github' }));

    const updated = await cli(
      'upstream',
      'update',
      'github',
      '--name',
      'GitHub.com',
      '--disable',
      '--client-secret',
      'rotated-secret',
      '--json',
    );
    expect(onlyJson(updated.stdout)).toEqual(
      expect.objectContaining({ name: 'GitHub.com', enabled: false }),
    );
    const human = await cli('upstream', 'show', 'github');
    expect(human.stdout).toContain('name: GitHub.com');

    for (const out of [added, google, list, shown, updated, human]) {
      expect(out.stdout + out.stderr).not.toContain(SECRET);
      expect(out.stdout + out.stderr).not.toContain('rotated-secret');
    }
    const rows: { client_secret_sealed: string }[] = await t.dataSource.query(
      'SELECT client_secret_sealed FROM upstream_providers',
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.client_secret_sealed).toMatch(/^v1\./);
      expect(row.client_secret_sealed).not.toContain(SECRET);
    }

    // The flow sees the decrypted secret; a disabled provider is not offered.
    const service = t.app.get(UpstreamProvidersService);
    expect((await service.listEnabled()).map((p) => p.id)).toEqual(['google']);
    expect(await service.find('github')).toBeNull();
    expect(await service.find('google')).toEqual(
      expect.objectContaining({ kind: 'google', clientSecret: SECRET }),
    );
    await cli('upstream', 'update', 'github', '--enable', '--json');
    expect(await service.find('github')).toEqual(
      expect.objectContaining({ clientSecret: 'rotated-secret', displayName: 'GitHub.com' }),
    );

    const removed = await cli('upstream', 'remove', 'github', '--json');
    expect(onlyJson(removed.stdout)).toEqual({ id: 'github', removed: true });
    const gone = await cli('upstream', 'show', 'github', '--json');
    expect(gone.exitCode).toBe(1);
    expect(onlyJson(gone.stdout)).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('leaves out a provider whose secret no longer decrypts (SESSION_SECRET changed)', async () => {
    await addGithub();
    await cli(
      'upstream',
      'add',
      'gh2',
      '--kind',
      'github',
      '--name',
      'GH2',
      '--client-id',
      'c',
      '--client-secret',
      SECRET,
    );
    // The github row's ciphertext moved to gh2: the provider id is the associated data.
    await t.dataSource.query(
      `UPDATE upstream_providers SET client_secret_sealed = (SELECT client_secret_sealed FROM upstream_providers WHERE id = 'github') WHERE id = 'gh2'`,
    );
    const service = t.app.get(UpstreamProvidersService);
    expect((await service.listEnabled()).map((p) => p.id)).toEqual(['github']);
    expect(await service.find('gh2')).toBeNull();
    await cli('upstream', 'update', 'gh2', '--client-secret', 'set-again');
    expect(await service.find('gh2')).toEqual(
      expect.objectContaining({ clientSecret: 'set-again' }),
    );
  });

  it('refuses bad input with {error, message}: duplicate id, unknown kind, missing settings', async () => {
    await addGithub();
    const duplicate = await addGithub();
    expect(duplicate.exitCode).toBe(1);
    expect(onlyJson(duplicate.stdout).error).toBe('conflict');

    const cases: string[][] = [
      [
        'upstream',
        'add',
        'x',
        '--kind',
        'saml',
        '--name',
        'X',
        '--client-id',
        'c',
        '--client-secret',
        's',
      ],
      [
        'upstream',
        'add',
        'Bad Id',
        '--kind',
        'github',
        '--name',
        'X',
        '--client-id',
        'c',
        '--client-secret',
        's',
      ],
      [
        'upstream',
        'add',
        'corp',
        '--kind',
        'oidc',
        '--name',
        'Corp',
        '--client-id',
        'c',
        '--client-secret',
        's',
      ],
      [
        'upstream',
        'add',
        'corp',
        '--kind',
        'oidc',
        '--name',
        'Corp',
        '--client-id',
        'c',
        '--client-secret',
        's',
        '--issuer',
        'not a url',
      ],
      // The reserved name of the password form in upstream_providers.
      [
        'upstream',
        'add',
        'password',
        '--kind',
        'github',
        '--name',
        'P',
        '--client-id',
        'c',
        '--client-secret',
        's',
      ],
      [
        'upstream',
        'add',
        'forum',
        '--kind',
        'discourse',
        '--name',
        'F',
        '--client-id',
        'c',
        '--client-secret',
        's',
      ],
      [
        'upstream',
        'add',
        'gen',
        '--kind',
        'oauth2',
        '--name',
        'G',
        '--client-id',
        'c',
        '--client-secret',
        's',
        '--authorization-url',
        'https://a.example/auth',
        '--token-url',
        'https://a.example/token',
        '--profile-url',
        'https://a.example/me',
      ],
    ];
    for (const argv of cases) {
      const out = await cli(...argv, '--json');
      expect({ argv, exitCode: out.exitCode }).toEqual({ argv, exitCode: 1 });
      expect(onlyJson(out.stdout)).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
      });
    }

    const usage = await cli('upstream', 'add', 'x', '--kind', 'github', '--json');
    expect(usage.exitCode).toBe(2);
    expect(onlyJson(usage.stdout).error).toBe('usage');
    const kindChange = await cli('upstream', 'update', 'github', '--kind', 'oidc', '--json');
    expect(kindChange.exitCode).toBe(2);

    const generic = await cli(
      'upstream',
      'add',
      'gen',
      '--kind',
      'oauth2',
      '--name',
      'G',
      '--client-id',
      'c',
      '--client-secret',
      's',
      '--authorization-url',
      'https://a.example/auth',
      '--token-url',
      'https://a.example/token',
      '--profile-url',
      'https://a.example/me',
      '--subject-field',
      'data.id',
      '--email-field',
      'data.mail',
      '--json',
    );
    expect(generic.exitCode).toBe(0);
    expect(onlyJson(generic.stdout).settings).toEqual({
      authorizationUrl: 'https://a.example/auth',
      tokenUrl: 'https://a.example/token',
      profileUrl: 'https://a.example/me',
      profileFields: { subject: 'data.id', email: 'data.mail' },
    });
  });

  it('refuses plain http endpoints off loopback (insecure_endpoint); https and loopback http pass', async () => {
    const add = (id: string, kind: string, ...settings: string[]) => [
      'upstream',
      'add',
      id,
      '--kind',
      kind,
      '--name',
      id,
      '--client-id',
      'c',
      '--client-secret',
      's',
      ...settings,
      '--json',
    ];
    const oauth2 = (base: string) => [
      '--authorization-url',
      `${base}/auth`,
      '--token-url',
      `${base}/token`,
      '--profile-url',
      `${base}/me`,
      '--subject-field',
      'id',
    ];
    const refused = [
      add('corp', 'oidc', '--issuer', 'http://login.corp.example'),
      add('forum', 'discourse', '--base-url', 'http://forum.example'),
      add('gh', 'github', '--emails-url', 'http://api.github.example/user/emails'),
      add('qq', 'qq', '--openid-url', 'http://graph.qq.example/oauth2.0/me'),
      add('gen', 'oauth2', ...oauth2('http://git.example')),
      // Only the token URL is plain http: every endpoint counts.
      add('gen', 'oauth2', ...oauth2('https://git.example'), '--token-url', 'http://git.example/t'),
      // A host that merely starts like a loopback name is not one.
      add('gen', 'oauth2', ...oauth2('http://127.0.0.1.nip.example')),
      add('gen', 'oauth2', ...oauth2('http://localhost.example')),
    ];
    for (const argv of refused) {
      const out = await cli(...argv);
      expect({ argv, exitCode: out.exitCode }).toEqual({ argv, exitCode: 1 });
      expect(onlyJson(out.stdout)).toEqual({
        error: 'insecure_endpoint',
        message: expect.stringMatching(/must be an https URL.*loopback/),
      });
    }
    expect(await t.dataSource.query('SELECT id FROM upstream_providers')).toEqual([]);

    const accepted = [
      add('corp', 'oidc', '--issuer', 'https://login.corp.example'),
      add('forum', 'discourse', '--base-url', 'https://forum.example'),
      add('local', 'oidc', '--issuer', 'http://127.0.0.1:8080'),
      add('loop8', 'oidc', '--issuer', 'http://127.8.9.10:8080'),
      add('v6', 'oidc', '--issuer', 'http://[::1]:8080'),
      add('dev', 'oauth2', ...oauth2('http://localhost:3001')),
    ];
    for (const argv of accepted) {
      const out = await cli(...argv);
      expect({ argv, exitCode: out.exitCode }).toEqual({ argv, exitCode: 0 });
    }

    // update checks the merged settings the same way.
    const update = (...argv: string[]) => cli('upstream', 'update', 'dev', ...argv, '--json');
    const insecure = await update('--token-url', 'http://git.example/token');
    expect(insecure.exitCode).toBe(1);
    expect(onlyJson(insecure.stdout).error).toBe('insecure_endpoint');
    expect((await update('--token-url', 'https://git.example/token')).exitCode).toBe(0);
    const shown = onlyJson((await cli('upstream', 'show', 'dev', '--json')).stdout);
    expect(shown.settings).toEqual(
      expect.objectContaining({ tokenUrl: 'https://git.example/token' }),
    );
  });

  it('does not use a stored provider with a plain http endpoint off loopback', async () => {
    await addGithub();
    // As a row written before add/update refused it.
    await t.dataSource.query(
      `UPDATE upstream_providers SET settings = '{"tokenUrl": "http://github.example/token"}' WHERE id = 'github'`,
    );
    const service = t.app.get(UpstreamProvidersService);
    const provider = await service.find('github');
    if (!provider) throw new Error('provider not found');
    const params = {
      state: 's',
      nonce: 'n',
      codeVerifier: 'v'.repeat(43),
      redirectUri: 'http://127.0.0.1:9/api/auth/upstream/github/callback',
    };
    await expect(service.authorizationUrl(provider, params)).rejects.toMatchObject({
      reason: 'unavailable',
    });
    await expect(
      service.complete(provider, { code: 'c', state: 's' }, params),
    ).rejects.toMatchObject({
      reason: 'unavailable',
      message: expect.stringContaining('tokenUrl'),
    });
  });
});

describe('admin CLI upstream commands as a process', () => {
  let dataDir: string;
  beforeEach(() => {
    // A copy of the run's migrated cluster: neither process spends seconds of CPU on PGlite's
    // initdb and the migrations (without the run's templates the first one makes its own).
    dataDir = embeddedCopy('migrated')?.dataDir ?? mkdtempSync(join(tmpdir(), 'cli-upstream-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('neither prints nor logs the secret, even at debug level', async () => {
    const env = childEnv({ EMBEDDED_DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    const added = await runCli(
      [
        'upstream',
        'add',
        'google',
        '--kind',
        'google',
        '--name',
        'Google',
        '--client-id',
        'g',
        '--client-secret',
        SECRET,
        '--json',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(onlyJson(added.stdout)).toEqual(
      expect.objectContaining({ id: 'google', kind: 'google' }),
    );
    const shown = await runCli(['upstream', 'show', 'google'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('kind: google');
    for (const out of [added, shown]) expect(out.stdout + out.stderr).not.toContain(SECRET);
  });
});
