import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { JWT_BEARER_ASSERTION_TYPE } from '../../src/modules/oauth/client-auth/assertion-credentials';
import type { ClientJwks, PublicJwk } from '../../src/modules/applications/client-jwks';
import { createApplication } from '../factories';
import { REDIRECT_URI } from './oauth';

export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
export type KeyAlg = 'ES256' | 'RS256' | 'PS256' | 'EdDSA' | 'Ed25519';

/** A client's signing key: the private key (jose's CryptoKey) and its public JWK as registered. */
export interface ClientKey {
  alg: KeyAlg;
  kid: string;
  privateKey: Awaited<ReturnType<Jose['generateKeyPair']>>['privateKey'];
  publicJwk: PublicJwk;
}

export const loadJose = (): Promise<Jose> => import('jose');

/** A fresh key pair of `alg`, its public JWK carrying kid, alg and use. */
export async function clientKey(alg: KeyAlg, kid: string = randomUUID()): Promise<ClientKey> {
  const jose = await loadJose();
  const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg, use: 'sig' } as PublicJwk;
  return { alg, kid, privateKey, publicJwk };
}

export const jwksOf = (...keys: ClientKey[]): ClientJwks => ({
  keys: keys.map((key) => key.publicJwk),
});

/** A private_key_jwt application with these keys inline (or a jwks_uri). */
export async function keyedClient(
  app: INestApplication,
  keys: { jwks?: ClientJwks; jwksUri?: string },
): Promise<{ id: number; clientId: string }> {
  const { application } = await createApplication(app, {
    authMethod: 'private_key_jwt',
    redirectUris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'],
    ...keys,
  });
  return { id: application.id, clientId: application.clientId };
}

export interface AssertionOptions {
  /** Claims replacing (or, undefined, removing) the defaults: iss = sub = clientId, aud, exp, iat, jti. */
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  now: Date;
  aud: string;
}

/** The default claims of an assertion for `clientId` at `now`: 60 s of life, a fresh jti. */
export function assertionClaims(
  clientId: string,
  options: AssertionOptions,
): Record<string, unknown> {
  const iat = Math.floor(options.now.getTime() / 1000);
  const claims: Record<string, unknown> = {
    iss: clientId,
    sub: clientId,
    aud: options.aud,
    iat,
    exp: iat + 60,
    jti: randomUUID(),
    ...options.claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims;
}

/** A client assertion signed with `key` (header alg and kid from the key unless overridden). */
export async function signAssertion(
  key: ClientKey,
  clientId: string,
  options: AssertionOptions,
): Promise<string> {
  const jose = await loadJose();
  return new jose.CompactSign(
    new TextEncoder().encode(JSON.stringify(assertionClaims(clientId, options))),
  )
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...options.header })
    .sign(key.privateKey);
}

/** An unsigned JWS (`alg: none`) of the default claims. */
export function unsignedAssertion(clientId: string, options: AssertionOptions): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', ...options.header })}.${part(assertionClaims(clientId, options))}.`;
}

/** The form fields of client authentication by assertion. */
export const assertionFields = (assertion: string): Record<string, string> => ({
  client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
  client_assertion: assertion,
});

/**
 * A token request whose only possible failure after client authentication is the grant: an
 * unknown refresh token. 400 invalid_grant means the client authenticated; 401 invalid_client
 * that it did not.
 */
export function probeTokenEndpoint(
  app: INestApplication,
  fields: Record<string, string>,
  authorization?: string,
  path = '/api/oauth2/token',
) {
  const req = supertest(app.getHttpServer()).post(path).type('form');
  if (authorization) void req.set('Authorization', authorization);
  return req.send({ grant_type: 'refresh_token', refresh_token: 'not-a-token', ...fields });
}
