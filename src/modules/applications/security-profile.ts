/**
 * The security profiles a client can run under (docs/oidc.md, "FAPI 2.0 Security Profile"):
 * `fapi2`, the FAPI 2.0 Security Profile's authorization server requirements for this client.
 */
export const SECURITY_PROFILES = ['fapi2'] as const;
export type SecurityProfile = (typeof SECURITY_PROFILES)[number];

/** How the console API and the CLI name a profile, `none` for a client without one. */
export const PROFILE_NAMES = ['none', ...SECURITY_PROFILES] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export const profileOf = (name: ProfileName): SecurityProfile | null =>
  name === 'none' ? null : name;
export const nameOf = (profile: SecurityProfile | null): ProfileName => profile ?? 'none';

/** FAPI 2.0 Security Profile section 5.3.2.1: an authorization code lives at most 60 s. */
export const FAPI2_CODE_TTL_SECONDS = 60;

/** The ID token algorithms FAPI 2.0 allows (section 5.4.1: PS256, ES256 or EdDSA). */
export const FAPI2_ID_TOKEN_ALGS = ['PS256', 'ES256', 'EdDSA'] as const;

/**
 * The JWS algorithms a `fapi2` client's own JWTs (client assertions, DPoP proofs) may use: the
 * same three (section 5.4.1), `Ed25519` being EdDSA's fully specified name (RFC 9864).
 */
export const FAPI2_JWS_ALGS = ['PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** The registration fields a profile constrains (an Application has them all). */
interface Registration {
  securityProfile: SecurityProfile | null;
  clientAuthMethod: string;
  redirectUris: readonly string[];
  /** Null: the default, RS256. */
  idTokenSignedResponseAlg: string | null;
  /** RFC 8628: the device authorization grant (absent: not registered for it). */
  deviceCodeGrant?: boolean;
}

/**
 * What keeps a client's registration from its profile, as sentences for a 400 (empty when it
 * holds). Under `fapi2` (sections 5.3.2.1 and 5.4): the client authenticates with
 * `private_key_jwt`, signs nothing with a shared secret, has only https redirect URIs, and takes
 * ID tokens signed with PS256, ES256 or EdDSA. What the profile asks of each request (pushed,
 * PKCE, DPoP, the code's lifetime) is enforced where the request is served.
 */
export function profileProblems(application: Registration): string[] {
  if (application.securityProfile !== 'fapi2') return [];
  const problems: string[] = [];
  if (application.clientAuthMethod !== 'private_key_jwt') {
    problems.push('the fapi2 profile needs client authentication by private_key_jwt');
  }
  const notHttps = application.redirectUris.filter((uri) => !uri.startsWith('https://'));
  if (notHttps.length > 0) {
    problems.push(`the fapi2 profile needs https redirect URIs: ${notHttps.join(', ')}`);
  }
  const alg = application.idTokenSignedResponseAlg ?? 'RS256';
  if (!(FAPI2_ID_TOKEN_ALGS as readonly string[]).includes(alg)) {
    problems.push(
      `the fapi2 profile needs id_token_signed_response_alg ${FAPI2_ID_TOKEN_ALGS.join(', ')}`,
    );
  }
  // Section 5.3.2.2: the profile's only grant is the code flow with pushed requests.
  if (application.deviceCodeGrant === true) {
    problems.push('the fapi2 profile allows no device authorization grant');
  }
  return problems;
}
