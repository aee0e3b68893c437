import type { Locale } from '../../../common/i18n/i18n';
import type { IssuerPath } from '../../signing-keys/issuers';
import type { OidcParams } from './checks/check-oidc-params';
import type { SecurityProfile } from '../../applications/security-profile';

/**
 * An authorization request after every check of the /oauth2/authorize pipeline has passed.
 * OpenID Connect requests add `nonce`, `maxAge`, `prompts` and `acr` (absent otherwise, and in
 * requests sealed before they existed).
 */
export interface AuthorizationRequest extends OidcParams {
  applicationId: number;
  redirectUri: string;
  /** Canonical scope text (see protocol/scopes.ts). */
  scope: string;
  state: string | null;
  /** S256 challenge, or null for a secret client that sent none. */
  codeChallenge: string | null;
  prompt: 'none' | null;
  /**
   * The sign-in methods upstream_providers names (docs/contract/oauth.md#authorization-request; provider ids and `password`),
   * or null when absent: every method (checks/upstream-providers.ts).
   */
  upstreamProviders: string[] | null;
  /**
   * Set when the request came to the alias issuer's authorization endpoint (/api/oidc/auth): its
   * answers and the code's id_tokens name that issuer (signing-keys/issuers.ts). Absent for
   * PUBLIC_BASE_URL, so such requests seal as before.
   */
  issuerPath?: IssuerPath;
  /**
   * The language its pages speak: the first supported tag of ui_locales (docs/languages.md).
   * Absent when ui_locales named none: the browser's own preference then.
   */
  uiLocale?: Locale;
  /**
   * The client's security profile when it has one (applications/security-profile.ts): a `fapi2`
   * request's code lives at most FAPI2_CODE_TTL_SECONDS. Absent for other clients.
   */
  profile?: SecurityProfile;
  /**
   * Set when the person is approving a device (RFC 8628; interaction/device/): the pages sign
   * them in as for any request, then lead to the device's confirmation page instead of consent
   * or a redirect (`redirectUri` is then the device page, never followed with a code).
   */
  device?: DeviceInteraction;
}

/** The device authorization the person entered the user code of. */
export interface DeviceInteraction {
  /** The device code row's id (oauth_device_codes). */
  id: string;
  /** The user code as shown (`BCDF-GHJK`), to show on the confirmation page. */
  userCode: string;
}
