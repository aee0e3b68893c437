import { join } from 'node:path';
import supertest from 'supertest';
import { childEnv, runCli } from '../../support/cli';
import { authorizeParams, authorizePath, hiddenInput, ISSUER, pkce } from '../../support/oauth';
import { processDatabase, type ProcessDatabase } from '../../support/process-database';
import { startService, type ServiceProcess } from '../../support/service-process';
import { startOidcStandIn } from '../../support/upstream-standins/oidc';

const ASYNC_CONTEXT_PROBE = join(__dirname, '..', '..', 'support', 'async-context-probe.js');

interface AccessLine {
  err?: Record<string, unknown>;
  req?: { id: string; method: string; path: string; headers?: Record<string, unknown> };
  res?: { statusCode: number };
  /** Lines written through Nest's Logger: the message, and the request's id when about one. */
  msg?: string;
  requestId?: string;
}

/** The JSON lines the service wrote to stdout. */
function lines(stdout: string): AccessLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as AccessLine);
}

/**
 * The logs (docs/operations.md, "Logs"): the real service as a process, its stdout read as the
 * operator reads it.
 */
describe('Logs', () => {
  let database: ProcessDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await processDatabase();
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exitCode;
    }
    await database.drop();
  });

  it('logs every request with the id it answers in X-Request-Id, bodies refused before routing included, secrets redacted, and never enters an AsyncLocalStorage', async () => {
    service = await startService({
      ...childEnv({ ...database.env, LOG_LEVEL: 'info', SHUTDOWN_DRAIN_DELAY_MS: '0' }),
      NODE_OPTIONS: `--require ${ASYNC_CONTEXT_PROBE}`,
    });
    const http = supertest(`http://127.0.0.1:${service.port}`);

    const live = await http.get('/health/live?probe=1').set('X-Request-Id', 'lb-1234');
    expect(live.headers['x-request-id']).toBe('lb-1234');
    // A JSON body on the token endpoint is refused by the body reader, before any route runs.
    const refused = await http
      .post('/api/oauth2/token')
      .set('Content-Type', 'application/json')
      .send('{"grant_type":"authorization_code"}');
    expect(refused.status).toBe(400);
    const token = await http
      .post('/api/oauth2/token')
      .set('Authorization', `Basic ${Buffer.from('nobody:secret-in-a-header').toString('base64')}`)
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'x' });
    expect(token.status).toBe(401);
    const me = await http.get('/api/v1/app/me').set('Authorization', 'Bearer not-a-key-value');
    expect(me.status).toBe(401);
    // A page route: its language is negotiated per request (an unknown client's error page).
    const page = await http
      .get('/oauth2/authorize?client_id=unknown&response_type=code')
      .set('Accept-Language', 'zh-CN');
    expect(page.status).toBe(400);
    expect(page.text).toContain('lang="zh-CN"');

    service.child.kill('SIGTERM');
    expect(await service.exitCode).toBe(0);
    const logged = lines(service.stdout());
    for (const [res, method, path] of [
      [live, 'GET', '/health/live'],
      [refused, 'POST', '/api/oauth2/token'],
      [token, 'POST', '/api/oauth2/token'],
      [me, 'GET', '/api/v1/app/me'],
      [page, 'GET', '/oauth2/authorize'],
    ] as const) {
      const id = res.headers['x-request-id'];
      expect(id).toEqual(expect.any(String));
      expect(logged.filter((line) => line.req?.id === id)).toEqual([
        expect.objectContaining({
          req: expect.objectContaining({ id, method, path }),
          res: { statusCode: res.status },
        }),
      ]);
    }
    expect(service.stdout()).not.toContain('secret-in-a-header');
    expect(service.stdout()).not.toContain(
      Buffer.from('nobody:secret-in-a-header').toString('base64'),
    );
    expect(service.stdout()).not.toContain('not-a-key-value');
    expect(service.stderr()).toContain('async context stores entered: 0\n');
  });

  it("names the request's id in the warnings about an upstream provider's failure and a refused passkey assertion", async () => {
    const upstream = await startOidcStandIn([`${ISSUER}/api/auth/upstream/corp/callback`]);
    try {
      const env = childEnv({
        ...database.env,
        PUBLIC_BASE_URL: ISSUER,
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_DELAY_MS: '0',
      });
      const app = await runCli(
        [
          ...['app', 'create', '--name', 'Logged', '--redirect-uri', 'https://client.example/cb'],
          ...['--auth-method', 'none', '--json'],
        ],
        env,
      );
      expect(app).toMatchObject({ code: 0 });
      const { clientId } = JSON.parse(app.stdout) as { clientId: string };
      const added = await runCli(
        [
          ...['upstream', 'add', 'corp', '--kind', 'oidc', '--name', 'Corp'],
          ...['--client-id', upstream.clientId, '--client-secret', upstream.clientSecret],
          ...['--issuer', upstream.issuer],
        ],
        env,
      );
      expect(added).toMatchObject({ code: 0 });
      service = await startService(env);
      const agent = supertest.agent(`http://127.0.0.1:${service.port}`);

      // The person declines at the provider: its callback answers error=access_denied.
      const params = authorizeParams({ clientId, challenge: pkce().challenge });
      const login = await agent.get((await agent.get(authorizePath(params))).headers.location);
      const start = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(login.text);
      const toUpstream = await agent.get(start![1].replace(/&amp;/g, '&'));
      expect(toUpstream.status).toBe(302);
      const state = new URL(toUpstream.headers.location).searchParams.get('state');
      const declined = await agent.get(
        `/api/auth/upstream/corp/callback?error=access_denied&state=${state}`,
      );
      expect(declined.status).toBe(403);

      // A console passkey sign-in answered with an assertion of no registered passkey.
      const options = await agent.post('/api/console/session/passkey/options').send({});
      expect(options.status).toBe(200);
      const refused = await agent.post('/api/console/session/passkey').send({
        ceremonyId: (options.body as { ceremonyId: string }).ceremonyId,
        response: { id: 'no-such-credential', response: {} },
      });
      expect(refused.status).toBe(401);

      service.child.kill('SIGTERM');
      expect(await service.exitCode).toBe(0);
      const logged = lines(service.stdout());
      for (const [res, msg] of [
        [declined, 'Upstream sign-in failed (denied): the sign-in was declined'],
        [refused, 'passkey assertion refused: unknown credential'],
      ] as const) {
        const requestId = res.headers['x-request-id'];
        expect(requestId).toEqual(expect.any(String));
        expect(logged.filter((line) => line.msg === msg)).toEqual([
          expect.objectContaining({ requestId }),
        ]);
      }
    } finally {
      await upstream.close();
    }
  });

  it("logs a page's failed query by its SQLSTATE code, without its parameters, as the API does", async () => {
    // A database of its own whose user_emails lost its email column: the forgot-password page's
    // address lookup then fails in PostgreSQL (42703), with the typed address as a parameter.
    const broken = await processDatabase();
    let page: ServiceProcess | undefined;
    try {
      await broken.withDataSource((dataSource) =>
        dataSource.query('ALTER TABLE user_emails RENAME COLUMN email TO email_elsewhere'),
      );
      page = await startService(
        childEnv({ ...broken.env, LOG_LEVEL: 'info', SHUTDOWN_DRAIN_DELAY_MS: '0' }),
      );
      const agent = supertest.agent(`http://127.0.0.1:${page.port}`);
      const form = await agent.get('/oauth2/forgot-password');
      expect(form.status).toBe(200);
      const failed = await agent
        .post('/oauth2/forgot-password')
        .type('form')
        .send({
          csrf_token: hiddenInput(form.text, 'csrf_token'),
          email: 'kept.private@example.org',
        });
      expect(failed.status).toBe(500);
      expect(failed.text).not.toContain('email_elsewhere');
      page.child.kill('SIGTERM');
      expect(await page.exitCode).toBe(0);

      const stdout = page.stdout();
      const requestId = failed.headers['x-request-id'];
      const [line] = lines(stdout).filter((entry) => entry.msg === 'Page failed');
      expect(line).toMatchObject({ requestId, err: expect.objectContaining({ code: '42703' }) });
      expect(Object.keys(line.err!)).not.toEqual(expect.arrayContaining(['query']));
      expect(Object.keys(line.err!)).not.toEqual(expect.arrayContaining(['parameters']));
      expect(JSON.stringify(line)).not.toContain('SELECT');
      // Nowhere in the log: the database logger writes the failed statement's text, never its
      // parameters (src/database/typeorm-logger.ts).
      expect(stdout).not.toContain('kept.private');
    } finally {
      if (page && page.child.exitCode === null) {
        page.child.kill('SIGKILL');
        await page.exitCode;
      }
      await broken.drop();
    }
  });
});
