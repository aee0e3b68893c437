import { join } from 'node:path';
import supertest from 'supertest';
import { childEnv, runCli } from '../../support/cli';
import { authorizeParams, authorizePath, ISSUER, pkce, type Agent } from '../../support/oauth';
import { processDatabase, type ProcessDatabase } from '../../support/process-database';
import { OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver';
import { startService, type ServiceProcess } from '../../support/service-process';
import { visitUpstream } from '../../support/upstream-standins/browser';
import { startOidcStandIn, type OidcStandIn } from '../../support/upstream-standins/oidc';

const LOADED_MODULES_HOOK = join(__dirname, '..', '..', 'support', 'loaded-modules.js');
const SERVER = 2;
const CLIENT = 3;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** The JSON stdout of a CLI command that must succeed. */
async function cliJson<T>(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<T> {
  const result = await runCli([...argv, '--json'], env);
  expect(result).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout) as T;
}

/** The server span at the root of `span`'s chain of parents (itself when it is one). */
function rootOf(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan | undefined {
  let current: ReceivedSpan | undefined = span;
  while (current?.parentSpanId !== undefined) {
    const parentId: string = current.parentSpanId;
    const parent = spans.find((s) => s.spanId === parentId);
    if (!parent) return current;
    current = parent;
  }
  return current;
}

interface LogLine {
  req?: { id: string; path: string };
}

/** The access-log line of the request that was answered with `requestId`. */
function logLineOf(stdout: string, requestId: string): LogLine | undefined {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .find((line) => line.req?.id === requestId);
}

/**
 * OpenTelemetry traces (docs/operations.md, "Traces"): the real service as a process, on the
 * test database (PostgreSQL when DATABASE_URL is set, else the embedded default), exporting to
 * an OTLP/HTTP receiver on loopback.
 */
describe('Traces', () => {
  let service: ServiceProcess | undefined;
  let receiver: OtlpReceiver;
  let upstream: OidcStandIn | undefined;
  let env: NodeJS.ProcessEnv;
  let database: ProcessDatabase;

  beforeEach(async () => {
    database = await processDatabase();
    receiver = new OtlpReceiver();
    env = childEnv({
      ...database.env,
      REDIS_URL: process.env.REDIS_URL,
      PUBLIC_BASE_URL: ISSUER,
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_DELAY_MS: '0',
      PASSWORD_HASH_COST: '10',
    });
  });
  afterEach(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exitCode;
    }
    service = undefined;
    await upstream?.close();
    await receiver.stop();
    await database.drop();
  });

  /** Starts the service with the loaded-modules hook; stops it with SIGTERM, as in production. */
  async function run(extra: Record<string, string>, drive: (agent: Agent) => Promise<void>) {
    service = await startService({
      ...env,
      ...extra,
      NODE_OPTIONS: `--require ${LOADED_MODULES_HOOK}`,
    });
    await drive(supertest.agent(`http://127.0.0.1:${service.port}`));
    service.child.kill('SIGTERM');
    expect(await service.exitCode).toBe(0);
    return { stdout: service.stdout(), stderr: service.stderr() };
  }

  it('traces a request with its PostgreSQL, Redis and outgoing HTTP spans, flushed at shutdown, with the trace id as request id and no secret', async () => {
    upstream = await startOidcStandIn([`${ISSUER}/api/auth/upstream/corp/callback`]);
    const app = await cliJson<{ id: number; clientId: string }>(
      env,
      'app',
      'create',
      '--name',
      'Traced',
      '--redirect-uri',
      'https://client.example/cb',
      '--auth-method',
      'none',
    );
    const key = await cliJson<{ key: string }>(
      env,
      'key',
      'create',
      '--app',
      String(app.id),
      '--scopes',
      'user:read',
      '--name',
      'traced',
    );
    await cliJson(
      env,
      'upstream',
      'add',
      'corp',
      '--kind',
      'oidc',
      '--name',
      'Corp',
      '--client-id',
      upstream.clientId,
      '--client-secret',
      upstream.clientSecret,
      '--issuer',
      upstream.issuer,
    );
    const endpoint = await receiver.start();
    // A search keyword may be a person's email address: query strings stay out of spans.
    const keyword = 'dana@corp.example';
    const secrets: string[] = [key.key, upstream.clientSecret, keyword];
    let apiRequestId = '';
    let callbackRequestId = '';

    const { stdout, stderr } = await run(
      // A batch delay longer than the test: every span arrives through the flush at shutdown.
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '600000' },
      async (agent) => {
        const list = await agent
          .get(`/api/v1/app/users?keyword=${encodeURIComponent(keyword)}`)
          .set('Authorization', `Bearer ${key.key}`)
          .set('X-Request-Id', 'from-the-proxy');
        expect(list.status).toBe(200);
        apiRequestId = list.headers['x-request-id'];

        const params = authorizeParams({ clientId: app.clientId, challenge: pkce().challenge });
        secrets.push(params.state!);
        const authorize = await agent.get(authorizePath(params));
        const page = await agent.get(authorize.headers.location);
        const start = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(page.text);
        const toUpstream = await agent.get(start![1].replace(/&amp;/g, '&'));
        expect(toUpstream.status).toBe(302);
        const callback = await visitUpstream(toUpstream.headers.location, ISSUER);
        const code = new URL(callback, ISSUER).searchParams.get('code');
        secrets.push(code!);
        const back = await agent.get(callback);
        expect(back.status).toBe(302);
        callbackRequestId = back.headers['x-request-id'];
      },
    );
    expect(stderr).toMatch(/opentelemetry modules loaded: [1-9]/);
    const spans = receiver.spans;

    // The API call: one server span named by its route, the request id is its trace id.
    const api = spans.find((s) => s.kind === SERVER && s.traceId === apiRequestId);
    expect(api).toMatchObject({
      name: 'GET /api/v1/app/users',
      attributes: expect.objectContaining({ 'http.route': '/api/v1/app/users' }),
      resource: expect.objectContaining({ 'service.name': 'identity-service' }),
    });
    expect(apiRequestId).toMatch(/^[0-9a-f]{32}$/);
    expect(logLineOf(stdout, apiRequestId)).toMatchObject({ req: { path: '/api/v1/app/users' } });
    const inApi = spans.filter((s) => s.traceId === apiRequestId && s !== api);
    for (const span of inApi) expect(rootOf(span, spans)).toBe(api);
    expect(inApi.some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    // Redis holds the rate-limit windows when REDIS_URL is set; otherwise they are in process.
    expect(inApi.some((s) => s.attributes['db.system.name'] === 'redis')).toBe(
      Boolean(process.env.REDIS_URL),
    );

    // The upstream callback: the token request to the provider is a client span inside it.
    const callbackSpan = spans.find((s) => s.kind === SERVER && s.traceId === callbackRequestId);
    expect(callbackSpan?.name).toBe('GET /api/auth/upstream/:providerId/callback');
    const outgoing = spans.filter((s) => s.traceId === callbackRequestId && s.kind === CLIENT);
    const tokenCall = outgoing.find((s) => String(s.attributes['url.full']).endsWith('/token'));
    expect(tokenCall).toMatchObject({
      attributes: expect.objectContaining({ 'http.request.method': 'POST' }),
    });
    expect(rootOf(tokenCall!, spans)).toBe(callbackSpan);

    // No credential, authorization code, state or search in any attribute; no caller's address.
    const attributes = JSON.stringify(spans.map((s) => s.attributes));
    for (const secret of secrets) expect(attributes).not.toContain(secret);
    for (const server of spans.filter((s) => s.kind === SERVER)) {
      expect(Object.keys(server.attributes)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(client\.address|user_agent\.)/)]),
      );
    }
  });

  it("continues the caller's trace from traceparent, which wins over X-Request-Id", async () => {
    const endpoint = await receiver.start();
    const { stdout } = await run(
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '600000' },
      async (agent) => {
        const res = await agent
          .get('/health/live')
          .set('traceparent', `00-${CALLER_TRACE}-${CALLER_SPAN}-01`)
          .set('X-Request-Id', 'from-the-proxy');
        expect(res.headers['x-request-id']).toBe(CALLER_TRACE);
      },
    );
    expect(receiver.spans.find((s) => s.kind === SERVER)).toMatchObject({
      traceId: CALLER_TRACE,
      parentSpanId: CALLER_SPAN,
      name: 'GET /health/live',
    });
    expect(logLineOf(stdout, CALLER_TRACE)).toBeDefined();
  });

  it('loads no OpenTelemetry module without OTEL_EXPORTER_OTLP_ENDPOINT; X-Request-Id stays as before', async () => {
    const { stdout, stderr } = await run({}, async (agent) => {
      const res = await agent.get('/health/live').set('X-Request-Id', 'from-the-proxy');
      expect(res.headers['x-request-id']).toBe('from-the-proxy');
    });
    expect(stderr).toContain('opentelemetry modules loaded: 0');
    expect(logLineOf(stdout, 'from-the-proxy')).toBeDefined();
  });
});
