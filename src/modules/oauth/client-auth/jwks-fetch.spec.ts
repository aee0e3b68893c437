import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fetchJwks, JwksFetchError } from './jwks-fetch';

const STRICT = { allowedPrivateHosts: [], allowLoopback: false };

async function refusal(uri: string, policy = STRICT, timeoutMs?: number): Promise<string> {
  try {
    await fetchJwks(uri, policy, timeoutMs);
  } catch (error) {
    expect(error).toBeInstanceOf(JwksFetchError);
    return (error as Error).message;
  }
  throw new Error('fetched');
}

// The jwks_uri fetch follows the webhook address rule (webhooks/webhook-address.ts), before
// any connection: these addresses are never reached.
describe('fetchJwks', () => {
  it('refuses loopback, private and link-local addresses before connecting', async () => {
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '10.0.0.1',
      '192.168.1.10',
      '172.16.0.1',
      '169.254.169.254',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      '0.0.0.0',
    ]) {
      expect(await refusal(`https://${host}/jwks.json`)).toMatch(/^address not allowed: /);
    }
    expect(await refusal('https://localhost/jwks.json')).toMatch(/^address not allowed: /);
  });

  it('refuses a URL that is not https', async () => {
    expect(await refusal('http://example.org/jwks.json')).toBe('jwks_uri is not https');
  });

  it('gives up on a server that accepts the connection and never answers', async () => {
    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const started = Date.now();
      const message = await refusal(
        `https://127.0.0.1:${port}/jwks.json`,
        { allowedPrivateHosts: [], allowLoopback: true },
        300,
      );
      expect(message).toBe('jwks_uri gave no answer within 300 ms');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
