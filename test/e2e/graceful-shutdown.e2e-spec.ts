import { childEnv } from '../utils/cli';
import { RawConnection, tryConnect } from '../utils/raw-http';
import { startService, type ServiceProcess } from '../utils/service-process';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_BODY = {
  'Content-Type': 'application/json',
  Authorization: `Bearer svc_live_${'0'.repeat(32)}`,
};

describe('SIGTERM: stop accepting, finish the requests in flight, exit 0', () => {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exitCode;
    }
  });

  it('answers every request in flight after SIGTERM, refuses new connections and exits 0', async () => {
    // The real database when DATABASE_URL is set (CI), else the embedded default in memory.
    service = await startService(
      childEnv({
        DATABASE_URL: process.env.DATABASE_URL,
        EMBEDDED_DATA_DIR: 'memory://',
        SHUTDOWN_TIMEOUT_MS: '60000',
      }),
    );
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
});
