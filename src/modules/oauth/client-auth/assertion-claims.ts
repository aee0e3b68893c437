import { CLIENT_ASSERTION_ALGS, type ClientJwks } from '../../applications/client-jwks';
import type { Jose } from '../../signing-keys/jose';

/** Clock skew allowed on `exp`, `nbf` and `iat` (the client's clock against ours). */
export const ASSERTION_CLOCK_SKEW_SECONDS = 30;
/** An assertion may not be valid for longer than this from now (its `exp`, less the skew). */
export const ASSERTION_MAX_LIFETIME_SECONDS = 300;
const MAX_JTI_LENGTH = 256;

/** What an assertion must be checked against. */
export interface AssertionExpectations {
  clientId: string;
  /** The accepted `aud` values (assertion-audiences.ts). */
  audiences: readonly string[];
  /** The algorithms allowed, a subset of CLIENT_ASSERTION_ALGS (all of them when absent). */
  algorithms?: readonly string[];
  now: Date;
}

/** A verified assertion: its id and until when it must not be accepted again. */
export interface VerifiedAssertion {
  jti: string;
  expiresAt: Date;
}

/** Why an assertion was refused, for the debug log only (never a claim's value). */
export class AssertionRefused extends Error {
  constructor(
    message: string,
    /** The set had no key for the assertion: a jwks_uri is worth fetching again. */
    readonly noMatchingKey = false,
  ) {
    super(message);
  }
}

/**
 * Verifies a client assertion (RFC 7523 sections 2.2 and 3, OIDC Core section 9) with the
 * client's keys, by jose:
 * - the JWS signature, by an asymmetric algorithm of CLIENT_ASSERTION_ALGS (never `none`, never
 *   HMAC) and a key of the set: the one with the header's `kid`, or, without a `kid`, each key of
 *   the algorithm's type in turn;
 * - `iss` and `sub` both the client_id;
 * - `aud` one value, one of `audiences` (an array of more than one is refused: an assertion meant
 *   for several servers is not one meant for this one);
 * - `exp` present, not past (with ASSERTION_CLOCK_SKEW_SECONDS) and at most
 *   ASSERTION_MAX_LIFETIME_SECONDS ahead; `nbf` and `iat`, when present, not in the future;
 * - `jti` present (a non-empty string of at most 256 characters); its single use is the caller's.
 */
export async function verifyAssertion(
  jose: Jose,
  assertion: string,
  jwks: ClientJwks,
  expected: AssertionExpectations,
): Promise<VerifiedAssertion> {
  const nowSeconds = Math.floor(expected.now.getTime() / 1000);
  const options = {
    algorithms: [...(expected.algorithms ?? CLIENT_ASSERTION_ALGS)],
    issuer: expected.clientId,
    subject: expected.clientId,
    audience: [...expected.audiences],
    requiredClaims: ['iss', 'sub', 'aud', 'exp', 'jti'],
    clockTolerance: ASSERTION_CLOCK_SKEW_SECONDS,
    currentDate: expected.now,
  };
  const payload = await verifySignature(jose, assertion, jwks, options);
  const { aud, exp, iat, jti } = payload;
  if (Array.isArray(aud) && aud.length !== 1) throw new AssertionRefused('aud has several values');
  if (typeof exp !== 'number') throw new AssertionRefused('exp is not a number');
  if (exp > nowSeconds + ASSERTION_MAX_LIFETIME_SECONDS + ASSERTION_CLOCK_SKEW_SECONDS) {
    throw new AssertionRefused('exp is too far ahead');
  }
  if (iat !== undefined && iat > nowSeconds + ASSERTION_CLOCK_SKEW_SECONDS) {
    throw new AssertionRefused('iat is in the future');
  }
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
    throw new AssertionRefused('jti is missing or malformed');
  }
  return { jti, expiresAt: new Date((exp + ASSERTION_CLOCK_SKEW_SECONDS) * 1000) };
}

type Payload = Awaited<ReturnType<Jose['jwtVerify']>>['payload'];
type VerifyOptions = NonNullable<Parameters<Jose['jwtVerify']>[2]>;

/** The payload once the signature holds with a key of the set; jose's checks of the claims too. */
async function verifySignature(
  jose: Jose,
  assertion: string,
  jwks: ClientJwks,
  options: VerifyOptions,
): Promise<Payload> {
  const keySet = jose.createLocalJWKSet(jwks);
  try {
    return (await jose.jwtVerify(assertion, keySet, options)).payload;
  } catch (error) {
    if (error instanceof jose.errors.JWKSMultipleMatchingKeys) {
      return tryEach(jose, assertion, error, options);
    }
    if (error instanceof jose.errors.JWKSNoMatchingKey) {
      throw new AssertionRefused('no registered key matches the header', true);
    }
    throw refusal(jose, error);
  }
}

/** No `kid` and several keys of the algorithm's type: the first whose signature holds. */
async function tryEach(
  jose: Jose,
  assertion: string,
  candidates: AsyncIterable<Parameters<Jose['jwtVerify']>[1]>,
  options: VerifyOptions,
): Promise<Payload> {
  let last: unknown = new AssertionRefused('no registered key verifies the signature');
  for await (const key of candidates) {
    try {
      return (await jose.jwtVerify(assertion, key as never, options)).payload;
    } catch (error) {
      last = error;
      if (!(error instanceof jose.errors.JWSSignatureVerificationFailed)) break;
    }
  }
  throw refusal(jose, last);
}

/** jose's error as a refusal whose message names the check (its code), never a value. */
function refusal(jose: Jose, error: unknown): AssertionRefused {
  if (error instanceof AssertionRefused) return error;
  if (error instanceof jose.errors.JOSEError) {
    const claim = (error as { claim?: string }).claim;
    return new AssertionRefused(`${error.code}${claim ? ` (${claim})` : ''}`);
  }
  return new AssertionRefused('the assertion could not be verified');
}
