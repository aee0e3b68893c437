import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { childEnv } from '../../support/cli';
import { processDatabase, type ProcessDatabase } from '../../support/process-database';
import { RawConnection, tryConnect } from '../../support/raw-http';
import { startService, type ServiceProcess } from '../../support/service-process';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_BODY = {
  'Content-Type': 'application/json',
  Authorization: `Bearer svc_live_${'0'.repeat(32)}`,
};

describe('SIGTERM: stop accepting, finish the requests in flight, exit 0', () => {
  let service: ServiceProcess | undefined;
  // A migrated database of each test's own: a scratch database with DATABASE_URL (CI), else a
  // copy of the run's embedded template. A service on 'memory://' would spend seconds of CPU on
  // PGlite's initdb and the migrations before it listens, in each of the three tests.
  let database: ProcessDatabase;
  beforeEach(async () => {
    database = await processDatabase();
  });
  afterEach(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exitCode;
    }
    await database.drop();
  });

  it('answers every request in flight after SIGTERM, refuses new connections and exits 0', async () => {
    service = await startService(childEnv({ ...database.env, SHUTDOWN_TIMEOUT_MS: '60000' }));
    const idle = await RawConnection.open(service.port);
    expect((await idle.request('GET', '/health/live')).status).toBe(200);

    // Held half-sent: each is being handled (100 Continue) and waits for its body.
    const inFlight = await Promise.all(
      [
        [
          'POST',
          '/api/oauth2/token',
          FORM,
          'grant_type=refresh_token&refresh_token=x&client_id=nope',
        ],
        ['PATCH', '/api/v1/app/users/1', JSON_BODY, '{"enabled":false}'],
        ['POST', '/oauth2/login', FORM, 'username=alice&password=x'],
      ].map(async ([method, path, headers, body]) => {
        const connection = await RawConnection.open(service!.port);
        return connection.startRequest(
          method as string,
          path as string,
          headers as Record<string, string>,
          body as string,
        );
      }),
    );

    service.child.kill('SIGTERM');
    await service.waitForStderr('no longer accepting connections');
    expect(await tryConnect(service.port)).toBe('ECONNREFUSED');
    // The idle keep-alive connection is closed rather than holding the shutdown open.
    await idle.closed;

    const [token, patch, login] = await Promise.all(inFlight.map((request) => request.finish()));
    expect([token.status, JSON.parse(token.body).error]).toEqual([401, 'invalid_client']);
    expect([patch.status, JSON.parse(patch.body).error]).toEqual([401, 'invalid_api_key']);
    // The login flow belongs to another change: any page but a server error.
    expect(login.status).toBeLessThan(500);
    expect(login.headers['content-type']).toMatch(/^text\/html/);

    expect(await service.exitCode).toBe(0);
    expect(service.stderr()).toContain('Shutdown complete');
  });

  describe('with a drain delay (rolling deploys behind a load balancer)', () => {
    // Long, so that every connection the test opens after the signal lands inside it however
    // busy the machine; a second SIGTERM ends it once the test has what it needs.
    const DRAIN_ENV = { SHUTDOWN_DRAIN_DELAY_MS: '60000', SHUTDOWN_TIMEOUT_MS: '60000' };

    it('answers a burst of new connections arriving around SIGTERM, every one, then exits 0', async () => {
      service = await startService(
        childEnv({ ...database.env, RATE_LIMIT_ENABLED: 'false', ...DRAIN_ENV }),
      );
      const port = service.port;
      const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
      const users = () =>
        send(port, agent, 'GET', '/api/v1/app/users?pageSize=100', JSON_BODY).then(
          (answer) => answer,
          (error: NodeJS.ErrnoException) => error.code ?? error.message,
        );

      // 50 at once; the signal goes as soon as the first is answered, the rest still arriving.
      const first = Array.from({ length: 50 }, users);
      await Promise.race(first);
      service.child.kill('SIGTERM');
      await service.waitForStderr('SIGTERM:');
      // 100 more new connections after the signal: the balancer has not seen the 503 yet.
      const after = await Promise.all(Array.from({ length: 100 }, users));
      const answers = [...(await Promise.all(first)), ...after];

      const outcomes = answers.map((answer) =>
        typeof answer === 'string' ? answer : `${answer.status} ${JSON.parse(answer.body).error}`,
      );
      expect(outcomes).toEqual(Array(150).fill('401 invalid_api_key'));
      service.child.kill('SIGTERM');
      expect(await service.exitCode).toBe(0);
      expect(service.stderr()).toContain('Shutdown complete');
    });

    it('drops no keep-alive request around SIGTERM: answers say Connection: close, readiness 503 at once', async () => {
      service = await startService(
        childEnv({ ...database.env, RATE_LIMIT_ENABLED: 'false', ...DRAIN_ENV }),
      );
      const port = service.port;
      const agent = new Agent({ keepAlive: true, maxSockets: 12 });
      const token = () =>
        send(
          port,
          agent,
          'POST',
          '/api/oauth2/token',
          FORM,
          'grant_type=refresh_token&refresh_token=x&client_id=nope',
        );
      let answered = 0;
      let signalSeen = false;
      let onSignalSeen = (): void => undefined;
      const signalled = new Promise<void>((done) => (onSignalSeen = done));
      // The signal goes once the clients have had 24 answers: every connection is open by then.
      const signalAt24 = () => {
        answered += 1;
        if (answered !== 24) return;
        service!.child.kill('SIGTERM');
        void service!.waitForStderr('SIGTERM:').then(() => {
          signalSeen = true;
          onSignalSeen();
        });
      };
      const afterSignal: { status: number; connection?: string }[] = [];
      // Twelve clients, each sending its next request as soon as the last one is answered,
      // until it has had three answers to requests sent after the service logged the signal.
      const clients = Promise.all(
        Array.from({ length: 12 }, async () => {
          let late = 0;
          while (late < 3) {
            const sentAfterSignal = signalSeen;
            const answer = await token();
            signalAt24();
            if (sentAfterSignal) {
              late += 1;
              afterSignal.push({ status: answer.status, connection: answer.headers.connection });
            }
          }
        }),
      );
      // Readiness right after the signal (or the clients' failure, which fails the test).
      await Promise.race([clients, signalled]);
      const ready = await send(port, new Agent({ keepAlive: false }), 'GET', '/health/ready', {});
      expect([ready.status, JSON.parse(ready.body).error]).toEqual([
        503,
        { shutdown: { status: 'down' } },
      ]);
      const live = await send(port, new Agent({ keepAlive: false }), 'GET', '/health/live', {});
      expect(live.status).toBe(200);
      await clients;

      expect(afterSignal).toHaveLength(36);
      expect(afterSignal).toEqual(Array(36).fill({ status: 401, connection: 'close' }));
      agent.destroy();
      service.child.kill('SIGTERM');
      expect(await service.exitCode).toBe(0);
      expect(service.stderr()).toContain('Shutdown complete');
    });
  });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request through `agent`; resolves with the whole answer, rejects on a socket error. */
function send(
  port: number,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}
