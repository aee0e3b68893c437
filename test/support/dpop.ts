import { createHash, randomUUID } from 'node:crypto';
import { ISSUER } from './oauth';
import { clientKey, loadJose, type ClientKey, type KeyAlg } from './private-key-jwt';
import type { TestApp } from './test-app';

/** A client's DPoP key (RFC 9449): a key pair and the SHA-256 thumbprint of its public JWK. */
export interface DpopKey extends ClientKey {
  jkt: string;
}

export async function dpopKey(alg: KeyAlg = 'ES256'): Promise<DpopKey> {
  const key = await clientKey(alg);
  const jose = await loadJose();
  return { ...key, jkt: await jose.calculateJwkThumbprint(key.publicJwk, 'sha256') };
}

/** The public JWK a proof carries in its header: the key's members, without kid and use. */
export function headerJwk(key: DpopKey): Record<string, unknown> {
  const members = Object.entries(key.publicJwk).filter(([name]) => !['kid', 'use'].includes(name));
  return Object.fromEntries(members);
}

/** What a proof says; each field replaces the default, `undefined` removes a claim. */
export interface ProofOptions {
  /** Default POST. */
  htm?: string;
  /** Default the token endpoint under the test's PUBLIC_BASE_URL. */
  htu?: string;
  /** Default the service's (test) clock. */
  iat?: number;
  jti?: string;
  nonce?: string;
  /** The access token whose hash goes into `ath`. */
  accessToken?: string;
  /** Claims set (or, undefined, removed) after the others. */
  claims?: Record<string, unknown>;
  /** Header members set after the defaults (typ dpop+jwt, alg, jwk). */
  header?: Record<string, unknown>;
}

export const TOKEN_URL = `${ISSUER}/api/oauth2/token`;
export const USERINFO_URL = `${ISSUER}/api/oauth2/userinfo`;

/** `ath`: base64url of the SHA-256 of the access token. */
export const ath = (accessToken: string): string =>
  createHash('sha256').update(accessToken, 'ascii').digest('base64url');

/** A DPoP proof JWT signed with `key` (RFC 9449 section 4.2). */
export async function dpopProof(t: TestApp, key: DpopKey, options: ProofOptions = {}) {
  const jose = await loadJose();
  const claims: Record<string, unknown> = {
    jti: options.jti ?? randomUUID(),
    htm: options.htm ?? 'POST',
    htu: options.htu ?? TOKEN_URL,
    iat: options.iat ?? Math.floor(t.clock.now().getTime() / 1000),
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
    ...(options.accessToken === undefined ? {} : { ath: ath(options.accessToken) }),
    ...options.claims,
  };
  const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
  return new jose.SignJWT(payload)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: headerJwk(key), ...options.header })
    .sign(key.privateKey);
}

/**
 * The server's current DPoP nonce, as a client learns it: a token request with a proof without
 * one is answered `use_dpop_nonce` with the nonce in `DPoP-Nonce` (RFC 9449 section 8).
 */
export async function serverNonce(t: TestApp, key: DpopKey, htu = TOKEN_URL): Promise<string> {
  const res = await t
    .http()
    .post('/api/oauth2/token')
    .type('form')
    .set('DPoP', await dpopProof(t, key, { htu: htu.replace(/\/api\/.*$/, '/api/oauth2/token') }))
    .send({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'x' });
  const nonce = res.headers['dpop-nonce'];
  if (res.status !== 400 || res.body.error !== 'use_dpop_nonce' || typeof nonce !== 'string') {
    throw new Error(`expected use_dpop_nonce, got ${res.status}: ${res.text}`);
  }
  return nonce;
}

/** A proof carrying the server's current nonce. */
export async function noncedProof(t: TestApp, key: DpopKey, options: ProofOptions = {}) {
  return dpopProof(t, key, { nonce: await serverNonce(t, key, options.htu), ...options });
}
