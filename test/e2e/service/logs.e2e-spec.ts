import { join } from 'node:path';
import supertest from 'supertest';
import { childEnv } from '../../support/cli';
import { processDatabase, type ProcessDatabase } from '../../support/process-database';
import { startService, type ServiceProcess } from '../../support/service-process';

const ASYNC_CONTEXT_PROBE = join(__dirname, '..', '..', 'support', 'async-context-probe.js');

interface AccessLine {
  req?: { id: string; method: string; path: string; headers?: Record<string, unknown> };
  res?: { statusCode: number };
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
});
