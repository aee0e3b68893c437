import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import {
  ID_TOKEN_SIGNING_ALGS,
  isIdTokenSigningAlg,
  type IdTokenSigningAlg,
} from '../../common/crypto/signing-algs';
import { CLIENT_AUTH_METHODS, type Application, type ClientAuthMethod } from './application.entity';
import {
  checkClientJwks,
  InvalidJwksError,
  isRegistrableJwksUri,
  MAX_JWKS_URI_LENGTH,
  type ClientJwks,
} from './client-jwks';
import { isRegistrableRedirectUri } from './redirect-uri';
import { profileProblems, type SecurityProfile } from './security-profile';
import { isAllowedWebUrl } from './web-url';

// What an application is made of, and the rules its registration obeys: ApplicationsService
// applies them on creation and after every change, the console before it spends a confirmation.

export interface NewApplication {
  name: string;
  redirectUris: string[];
  /** Where RP-initiated logout may return (docs/oidc.md); none by default. */
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  /** A `private_key_jwt` client's public keys: exactly one of jwks and jwksUri. */
  jwks?: ClientJwks | null;
  jwksUri?: string | null;
  description?: string;
  homeUrl?: string;
  logo?: string;
  isPublic?: boolean;
  requireVerifiedEmail?: boolean;
  /** Whether the login page offers "Create an account" (docs/accounts.md); off by default. */
  signUpEnabled?: boolean;
  /** RFC 9126 section 5: /authorize only with a pushed request (docs/oauth.md); off by default. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 section 5.2: every token request with a DPoP proof (docs/oauth.md); off by default. */
  dpopBoundAccessTokens?: boolean;
  /** RFC 8628: registered for the device authorization grant (docs/oauth.md); off by default. */
  deviceCodeGrant?: boolean;
  /** The client's security profile (security-profile.ts); none by default. */
  securityProfile?: SecurityProfile | null;
  /** The alg of its id_tokens (docs/oidc.md, "Signing keys"); absent: RS256. */
  idTokenSignedResponseAlg?: IdTokenSigningAlg;
  /** OpenID Connect Back-Channel Logout 1.0 (docs/oidc.md); none by default. */
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean;
  /** The console account that creates it; CLI applications have none. */
  ownerId?: string;
}

/** What the console's settings form may change; absent fields stay as they are. */
export interface ApplicationSettings {
  name?: string;
  description?: string;
  homeUrl?: string;
  logo?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  /**
   * A `private_key_jwt` client's keys: a JWKS, or where to fetch it. Either replaces the other;
   * null removes it. Switching to another method drops both.
   */
  jwks?: ClientJwks | null;
  jwksUri?: string | null;
  isPublic?: boolean;
  enabled?: boolean;
  requireVerifiedEmail?: boolean;
  signUpEnabled?: boolean;
  requirePushedAuthorizationRequests?: boolean;
  dpopBoundAccessTokens?: boolean;
  deviceCodeGrant?: boolean;
  securityProfile?: SecurityProfile | null;
  idTokenSignedResponseAlg?: IdTokenSigningAlg;
  /** Where logout tokens go (backchannel-logout-uri.ts); null removes it. */
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean;
  /** Upstream provider ids a user must have bound; the caller checks they exist. */
  requiredUpstreams?: string[];
}

/** A registration refused: 400 invalid_request. */
export const invalid = (message: string): AppError =>
  new AppError(ErrorCode.InvalidRequest, message);

/**
 * The rules every name, URL and method of an application obeys, on creation and on update
 * (400 invalid_request); the console runs them before it spends a confirmation.
 */
export function checkSettings(input: ApplicationSettings): void {
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100) throw invalid('name must be 1 to 100 characters');
  }
  if (input.authMethod !== undefined && !CLIENT_AUTH_METHODS.includes(input.authMethod)) {
    throw invalid(`auth method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`);
  }
  checkKeySettings(input);
  // Never none or an HMAC: only the algorithms the provider has keys for (a CLI value unchecked).
  const alg: unknown = input.idTokenSignedResponseAlg;
  if (alg !== undefined && !isIdTokenSigningAlg(alg)) {
    throw invalid(`id_token signing alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`);
  }
  const bad = (input.redirectUris ?? []).filter((uri) => !isRegistrableRedirectUri(uri));
  if (bad.length > 0) throw invalid(`redirect URIs not allowed: ${bad.join(', ')}`);
  // RP-Initiated Logout 1.0 section 3: the same registration rules as redirect URIs.
  const badLogout = (input.postLogoutRedirectUris ?? []).filter(
    (uri) => !isRegistrableRedirectUri(uri),
  );
  if (badLogout.length > 0) {
    throw invalid(`post-logout redirect URIs not allowed: ${badLogout.join(', ')}`);
  }
  // Shown to others (consent page, console, GET /api/v1/app/me): docs/security.md.
  for (const [field, url] of [
    ['homeUrl', input.homeUrl],
    ['logo', input.logo],
  ] as const) {
    if (url && !isAllowedWebUrl(url)) {
      throw invalid(
        `${field} must be an https URL (http only on localhost, 127.0.0.0/8 or [::1]): ${url}`,
      );
    }
  }
}

/**
 * The application as a whole meets its security profile (400 invalid_request naming each
 * problem): checked on creation and after every change, so a change that would take a `fapi2`
 * client out of its profile (another method, an http redirect URI, RS256) is refused.
 */
export function checkProfile(application: Application): void {
  const problems = profileProblems(application);
  if (problems.length > 0) throw invalid(problems.join('; '));
}

/** The shape of the keys sent (each on its own); whether the method wants them is checkClientKeys'. */
function checkKeySettings({ jwks, jwksUri }: ApplicationSettings): void {
  if (jwks !== undefined && jwks !== null && jwksUri !== undefined && jwksUri !== null) {
    throw invalid('send either jwks or jwksUri, not both');
  }
  if (jwks !== undefined && jwks !== null) {
    try {
      checkClientJwks(jwks);
    } catch (error) {
      if (error instanceof InvalidJwksError) throw invalid(error.message);
      throw error;
    }
  }
  if (jwksUri !== undefined && jwksUri !== null && !isRegistrableJwksUri(jwksUri)) {
    throw invalid(
      `jwksUri must be an https URL without credentials or fragment, at most ${MAX_JWKS_URI_LENGTH} characters`,
    );
  }
}

/**
 * A `private_key_jwt` client has keys (inline or by URI, one of the two); a client of another
 * method has none, so no stale key could ever authenticate it.
 */
export function checkClientKeys(
  method: ClientAuthMethod,
  jwks: ClientJwks | null,
  jwksUri: string | null,
): void {
  if (method === 'private_key_jwt' && jwks === null && jwksUri === null) {
    throw invalid('a private_key_jwt client needs jwks or jwksUri');
  }
  if (method !== 'private_key_jwt' && (jwks !== null || jwksUri !== null)) {
    throw invalid('jwks and jwksUri are for private_key_jwt clients only');
  }
}
