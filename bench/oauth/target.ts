/**
 * What the harness knows of a target: its process, the PostgreSQL database whose backends
 * serve it, the operations it takes part in, and how to make the untimed inputs of a phase.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Child } from './child';
import type { Load } from './generator';

export type OpName = 'exchange' | 'refresh' | 'userinfo' | 'introspection' | 'me';
export const OPERATIONS: { op: OpName; label: string }[] = [
  { op: 'exchange', label: 'code → token exchange' },
  { op: 'refresh', label: 'refresh (rotation)' },
  { op: 'userinfo', label: 'userinfo (bearer GET)' },
  { op: 'introspection', label: 'introspection (RFC 7662)' },
  { op: 'me', label: 'GET /api/v1/app/me' },
];

/** A phase's requests, without the concurrency the harness adds. */
export type PhaseLoad = Omit<Load, 'connections'>;

export interface Target {
  /** Short key: ours, ours×2 (two instances), baseline (another checkout), memory, postgres, bare. */
  key: string;
  name: string;
  /**
   * Its server processes: one, or several of ours sharing one database and Redis (BENCH_INSTANCES);
   * the server CPU of a phase is their sum.
   */
  children: Child[];
  /** The database whose client backends count as this target's PostgreSQL CPU. */
  database?: string;
  ops: OpName[];
  /** Untimed: the requests of one phase of `n` operations (fresh codes, the last refresh tokens…). */
  prepare(op: OpName, n: number): Promise<PhaseLoad>;
  /** The answers of a phase (an exchange's refresh tokens feed the next refresh phase). */
  answered(op: OpName, bodies: string[]): void;
  close(): Promise<void>;
}

export const REDIRECT_URI = 'https://client.example/cb';
export const VERIFIER = randomBytes(32).toString('base64url');
export const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Where an OAuth target answers, and how the harness makes its inputs. */
export interface OAuthTarget {
  tokenUrl: string;
  userinfoUrl: string;
  introspectionUrl: string | null;
  clientId: string;
  /** client_secret_basic of the resource-server client (RFC 6749 section 2.3.1). */
  introspectionAuth: string;
  /** What a good userinfo answer contains. */
  userinfoExpect: string;
  makeCodes(n: number): Promise<string[]>;
  /** A fixed set of access tokens of the public client, valid at userinfo, made once. */
  accessTokens(): Promise<string[]>;
  /**
   * A fixed set of access tokens issued to the introspecting resource-server client itself,
   * made once: a client introspects only its own tokens (another client's are `active: false`
   * on both sides, docs/performance/oauth.md).
   */
  introspectionTokens(): Promise<string[]>;
}

export function basicAuth(clientId: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(secret)}`).toString('base64')}`;
}

/** The phases of an OAuth target: the same requests, in the same order, for ours and the peers. */
export function oauthPhases(t: OAuthTarget): Pick<Target, 'prepare' | 'answered'> {
  let refreshTokens: string[] = [];
  let tokens: Promise<string[]> | undefined;
  let ownTokens: Promise<string[]> | undefined;
  return {
    async prepare(op, n) {
      switch (op) {
        case 'exchange': {
          const codes = await t.makeCodes(n);
          return post(
            t.tokenUrl,
            codes.map((code) => exchange(t.clientId, code)),
            '"refresh_token"',
            true,
          );
        }
        case 'refresh': {
          if (refreshTokens.length < n)
            throw new Error('refresh phase without an exchange phase before');
          const bodies = refreshTokens.map((rt) =>
            new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: rt,
              client_id: t.clientId,
            }).toString(),
          );
          refreshTokens = [];
          return post(t.tokenUrl, bodies, '"refresh_token"', false);
        }
        case 'userinfo':
          tokens ??= t.accessTokens();
          return {
            url: t.userinfoUrl,
            method: 'GET',
            headers: {},
            variants: (await tokens).map((token) => ({
              headers: { authorization: `Bearer ${token}` },
            })),
            amount: n,
            expect: t.userinfoExpect,
            collect: false,
          };
        case 'introspection': {
          ownTokens ??= t.introspectionTokens();
          const load = post(
            t.introspectionUrl!,
            (await ownTokens).map((token) => new URLSearchParams({ token }).toString()),
            '"active":true',
            false,
          );
          return {
            ...load,
            headers: { ...load.headers, authorization: t.introspectionAuth },
            amount: n,
          };
        }
        case 'me':
          throw new Error('not an OAuth operation');
      }
    },
    answered(op, bodies) {
      if (op === 'exchange')
        refreshTokens = bodies.map(
          (b) => (JSON.parse(b) as { refresh_token: string }).refresh_token,
        );
    },
  };
}

function exchange(clientId: string, code: string): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: VERIFIER,
  }).toString();
}

function post(url: string, bodies: string[], expect: string, collect: boolean): PhaseLoad {
  return {
    url,
    method: 'POST',
    headers: FORM,
    variants: bodies.map((body) => ({ body })),
    amount: bodies.length,
    expect,
    collect,
  };
}
