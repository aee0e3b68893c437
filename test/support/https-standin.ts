import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, globalAgent, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), valid one day. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'standin-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HttpsStandin {
  /** https://localhost:<port> */
  origin: string;
  /** Requests received, by path. */
  hits: (path: string) => number;
  close: () => Promise<void>;
}

/**
 * An https server on 127.0.0.1 with a self-signed certificate that node:https in this process
 * trusts (the global agent's CA list: what the service's outgoing requests use), standing in for
 * a client's jwks_uri. The certificate is trusted only while the stand-in runs.
 */
export async function httpsStandin(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HttpsStandin> {
  const { key, cert } = selfSignedCertificate();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    counts.set(req.url ?? '', (counts.get(req.url ?? '') ?? 0) + 1);
    handle(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const previous = globalAgent.options.ca;
  globalAgent.options.ca = cert;
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://localhost:${port}`,
    hits: (path) => counts.get(path) ?? 0,
    close: async () => {
      globalAgent.options.ca = previous;
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
