import { createHash } from 'node:crypto';
import { privateMaterialOf } from '../../applications/client-jwks';
import type { Jose } from '../../signing-keys/jose';

/**
 * The algorithms a DPoP proof may be signed with (RFC 9449 section 4.3, item 5: asymmetric, never
 * `none` nor a MAC): the metadata's `dpop_signing_alg_values_supported`, the same list as client
 * assertions take.
 */
export const DPOP_SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** How old a proof's `iat` may be (RFC 9449 section 4.3, item 11, "a reasonable window"). */
export const DPOP_PROOF_MAX_AGE_SECONDS = 300;
/** How far ahead of our clock a proof's `iat` may be (the client's clock against ours). */
export const DPOP_PROOF_CLOCK_SKEW_SECONDS = 60;
/** A proof longer than this is refused unread (an RSA-4096 key and every claim fit in 2 kB). */
export const DPOP_PROOF_MAX_LENGTH = 4096;
const MAX_JTI_LENGTH = 256;

/** What the proof must have been made for (RFC 9449 section 4.3, items 8, 9 and 12). */
export interface ProofRequest {
  /** The request's method (`htm`, compared exactly). */
  method: string;
  /** The URL the request was sent to (`htu`), under PUBLIC_BASE_URL. */
  url: string;
  /** The access token sent with the proof, at a resource: the proof's `ath` must be its hash. */
  accessToken?: string;
  now: Date;
}

/** A proof whose signature, header and claims hold; its nonce and `jti` are the caller's. */
export interface VerifiedProof {
  /** The JWK SHA-256 thumbprint of the proof's key (RFC 7638): the tokens' `cnf.jkt`. */
  jkt: string;
  /** The proof's JWS algorithm. */
  alg: string;
  jti: string;
  /** The proof's `nonce` claim, if it has one. */
  nonce: string | undefined;
  /** Until when the proof's `jti` must not be accepted again (its `iat` is acceptable until then). */
  replayableUntil: Date;
}

/**
 * Why a proof was refused: the error's description, a fixed text naming the rule, never a value
 * of the proof (docs/security.md, "Sender-constrained tokens (DPoP)").
 */
export class DpopProofRefused extends Error {}

/**
 * Checks one DPoP proof (RFC 9449 section 4.3, items 2 to 9, 11 and 12), by jose: a compact JWS of
 * `typ: dpop+jwt`, signed by an algorithm of DPOP_SIGNING_ALGS with the public key of its `jwk`
 * header (which may hold no private member); `jti`, `htm`, `htu` and `iat` present; `htm` the
 * request's method; `htu` its URL, both without query and fragment; `iat` no more than
 * DPOP_PROOF_MAX_AGE_SECONDS old nor DPOP_PROOF_CLOCK_SKEW_SECONDS ahead; at a resource, `ath`
 * the base64url SHA-256 of the access token. Item 1 (one header) is the caller's, item 10 (the
 * nonce) and the single use of `jti` too.
 */
export async function verifyDpopProof(
  jose: Jose,
  proof: string,
  request: ProofRequest,
): Promise<VerifiedProof> {
  if (proof.length > DPOP_PROOF_MAX_LENGTH)
    throw new DpopProofRefused('The DPoP proof is too long');
  const jwk = embeddedKey(jose, proof);
  const { payload, protectedHeader } = await verifySignature(jose, proof);
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
    throw new DpopProofRefused('The DPoP proof needs a jti');
  }
  if (typeof htm !== 'string') throw new DpopProofRefused('The DPoP proof needs htm');
  if (typeof htu !== 'string') throw new DpopProofRefused('The DPoP proof needs htu');
  if (typeof iat !== 'number') throw new DpopProofRefused('The DPoP proof needs iat');
  if (htm !== request.method) throw new DpopProofRefused('The DPoP proof is for another method');
  if (!sameTarget(htu, request.url)) {
    throw new DpopProofRefused('The DPoP proof is for another URL');
  }
  const now = request.now.getTime() / 1000;
  if (iat > now + DPOP_PROOF_CLOCK_SKEW_SECONDS || iat < now - DPOP_PROOF_MAX_AGE_SECONDS) {
    throw new DpopProofRefused('The DPoP proof is too old or dated in the future');
  }
  if (request.accessToken !== undefined && ath !== accessTokenHash(request.accessToken)) {
    throw new DpopProofRefused('The DPoP proof does not carry the hash of this access token');
  }
  if (nonce !== undefined && typeof nonce !== 'string') {
    throw new DpopProofRefused('The DPoP proof has a malformed nonce');
  }
  return {
    jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'),
    alg: protectedHeader.alg,
    jti,
    nonce,
    replayableUntil: new Date(
      (Math.floor(iat) + DPOP_PROOF_MAX_AGE_SECONDS + DPOP_PROOF_CLOCK_SKEW_SECONDS + 1) * 1000,
    ),
  };
}

/** `ath` (RFC 9449 section 4.2): base64url of the SHA-256 of the access token's ASCII. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/**
 * Whether `htu` names the URL the request was sent to (RFC 9449 section 4.3, item 9): both
 * absolute http(s) URLs, compared after the syntax-based normalisation of RFC 3986 section 6.2.2
 * (case of scheme and host, default port, dot segments: the WHATWG URL parser's) and the
 * scheme-based one of section 6.2.3 (an empty path is `/`), without query and fragment.
 */
export function sameTarget(htu: string, url: string): boolean {
  const claimed = targetOf(htu);
  return claimed !== null && claimed === targetOf(url);
}

function targetOf(value: string): string | null {
  // Nothing the WHATWG parser would quietly drop or rewrite: surrounding or inner whitespace
  // and backslashes. A URL with user information never names this server's endpoint.
  if (/[\s\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

type JoseJwkParameter = Parameters<Jose['calculateJwkThumbprint']>[0];

/** The proof's `jwk` header: a public key (no private member); the `typ` checked by jose. */
function embeddedKey(jose: Jose, proof: string): JoseJwkParameter {
  let header: ReturnType<Jose['decodeProtectedHeader']>;
  try {
    header = jose.decodeProtectedHeader(proof);
  } catch {
    throw new DpopProofRefused('The DPoP proof is not a JWT');
  }
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) {
    throw new DpopProofRefused('The DPoP proof needs a jwk header');
  }
  if (privateMaterialOf(jwk).length > 0) {
    throw new DpopProofRefused('The DPoP proof key must be a public key');
  }
  return jwk;
}

type Verified = Awaited<ReturnType<Jose['jwtVerify']>>;

/** The payload and header, once jose verified the signature with the embedded key and the `typ`. */
async function verifySignature(
  jose: Jose,
  proof: string,
): Promise<Pick<Verified, 'payload' | 'protectedHeader'>> {
  try {
    return await jose.jwtVerify(proof, jose.EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...DPOP_SIGNING_ALGS],
    });
  } catch (error) {
    throw new DpopProofRefused(refusalText(jose, error));
  }
}

/** A fixed text per failure of jose's, never the proof's values. */
function refusalText(jose: Jose, error: unknown): string {
  if (error instanceof jose.errors.JOSEAlgNotAllowed) {
    return 'The DPoP proof is signed with an algorithm that is not allowed';
  }
  if (error instanceof jose.errors.JWSSignatureVerificationFailed) {
    return 'The DPoP proof signature does not verify with its key';
  }
  if (error instanceof jose.errors.JWTClaimValidationFailed && error.claim === 'typ') {
    return 'The DPoP proof must have typ dpop+jwt';
  }
  return 'The DPoP proof is malformed';
}
