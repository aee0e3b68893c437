import { OAuthError, type OAuthErrorCode } from '../protocol/oauth-error';
import { DPOP_SIGNING_ALGS } from './dpop-proof';

/** The DPoP scheme's challenge parameter listing the proof algorithms (RFC 9449 section 7.1). */
const ALGS = `algs="${DPOP_SIGNING_ALGS.join(' ')}"`;

/** The errors a resource answers a DPoP request with (RFC 9449 section 7.1 and 8). */
export type ResourceDpopErrorCode = Extract<
  OAuthErrorCode,
  'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce' | 'invalid_request'
>;

/**
 * A resource's answer to a request that fails under the DPoP scheme, or to a DPoP-bound token sent
 * as a bearer token (RFC 9449 sections 7.1, 7.2 and 8): 401 (400 for a malformed request) with
 * the `DPoP` challenge naming the error and the accepted algorithms, and the current nonce in
 * `DPoP-Nonce` when nonces are in use.
 */
export function resourceDpopError(
  code: ResourceDpopErrorCode,
  description: string,
  dpopNonce?: string,
): OAuthError {
  return new OAuthError(
    code,
    description,
    `DPoP ${ALGS}, error="${code}", error_description="${description}"`,
    { status: code === 'invalid_request' ? 400 : 401, dpopNonce },
  );
}

/** The challenge without an error: a DPoP request that carried no access token. */
export const DPOP_CHALLENGE = `DPoP ${ALGS}`;
