import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadJose } from './private-key-jwt';

/** One logout POST as it arrived. */
export interface ReceivedLogout {
  path: string;
  contentType: string | undefined;
  /** The form's fields: exactly `logout_token` when the sender is right. */
  fields: Record<string, string>;
  token: string;
}

/** What the receiver answers to a request of a path; 200 unless scripted. */
export interface LogoutAnswer {
  status: number;
  headers?: Record<string, string>;
}

/**
 * A relying party's back-channel logout endpoint on 127.0.0.1 (OpenID Connect Back-Channel
 * Logout 1.0 section 2.5): it records every POST and answers as scripted per path (200 when
 * nothing is), or never answers a path told to hang. It can be stopped (connection refused) and
 * started again on the same port.
 */
export class BackchannelReceiver {
  readonly received: ReceivedLogout[] = [];
  private readonly answers = new Map<string, LogoutAnswer>();
  private readonly hanging = new Set<string>();
  private server?: Server;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://receiver').pathname;
        const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
        this.received.push({
          path,
          contentType: req.headers['content-type'],
          fields,
          token: fields.logout_token ?? '',
        });
        if (this.hanging.has(path)) return;
        const answer = this.answers.get(path) ?? { status: 200 };
        res.writeHead(answer.status, { 'cache-control': 'no-store', ...answer.headers });
        res.end();
      });
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  answer(path: string, answer: LogoutAnswer): void {
    this.answers.set(path, answer);
  }

  /** Requests to `path` are read and never answered (until reset). */
  hang(path: string): void {
    this.hanging.add(path);
  }

  reset(): void {
    this.received.length = 0;
    this.answers.clear();
    this.hanging.clear();
  }

  at(path: string): ReceivedLogout[] {
    return this.received.filter((logout) => logout.path === path);
  }
}

/** A logout token as a receiver accepts it: verified, with its header and claims. */
export interface VerifiedLogout {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/**
 * Validates a logout token as section 2.6 asks, with jose against the provider's JWKS: the
 * signature, `typ: logout+jwt`, `iss`, `aud`, `iat` and `exp` (at `now`, the provider's test
 * clock), and the presence of `jti`, `sub`, `sid` and the back-channel event, and no `nonce`.
 * Throws when any of it fails.
 */
export async function verifyLogoutToken(
  token: string,
  jwks: { keys: object[] },
  expected: { issuer: string; audience: string; now: Date },
): Promise<VerifiedLogout> {
  const jose = await loadJose();
  const keySet = jose.createLocalJWKSet(jwks);
  const { payload, protectedHeader } = await jose.jwtVerify(token, keySet, {
    issuer: expected.issuer,
    audience: expected.audience,
    typ: 'logout+jwt',
    currentDate: expected.now,
    requiredClaims: ['iat', 'exp', 'jti', 'sub', 'sid', 'events'],
  });
  const events = payload.events as Record<string, unknown> | undefined;
  if (
    typeof events !== 'object' ||
    events === null ||
    !('http://schemas.openid.net/event/backchannel-logout' in events)
  ) {
    throw new Error('the logout token has no back-channel logout event');
  }
  if ('nonce' in payload) throw new Error('a logout token must not carry a nonce');
  return { header: { ...protectedHeader }, claims: { ...payload } };
}
