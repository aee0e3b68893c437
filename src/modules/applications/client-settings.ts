import { sha256Hex } from '../../common/crypto/hash';
import { CLIENT_AUTH_METHODS, type Application, type ClientAuthMethod } from './application.entity';
import { canonicalJwks, MAX_JWKS_URI_LENGTH, type ClientJwks } from './client-jwks';

/**
 * The OAuth client settings of an application: where codes and tokens may go (redirect URIs),
 * where logout may return (post-logout redirect URIs) and how the client proves itself (the
 * client authentication method, whose switch to `secret` mints a secret, and the keys of a
 * `private_key_jwt` client: its JWKS or jwks_uri). Changing any of them
 * in the console needs a `client_settings.update` passkey confirmation bound to the change
 * (docs/console.md, docs/security.md "Step-up confirmations").
 */
export interface ClientSettings {
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  jwks?: ClientJwks | null;
  jwksUri?: string | null;
  /**
   * Where logout tokens go (docs/oidc.md, "Back-channel logout"): setting or changing it needs
   * the confirmation, as a webhook endpoint's URL does, since users' ids go there; removing it
   * (null) needs none.
   */
  backchannelLogoutUri?: string | null;
}

export type ClientSetting = keyof ClientSettings;

const MAX_URIS = 20;
const MAX_URI_LENGTH = 2000;

const uriList = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length <= MAX_URIS &&
  value.every((item) => typeof item === 'string' && item.length <= MAX_URI_LENGTH);

/**
 * The client settings of a confirmation request (`{redirectUris?, postLogoutRedirectUris?,
 * clientAuthMethod?, jwks?, jwksUri?}`, the names of the settings body), or null when it is not
 * that shape. The keys' own rules are checkSettings' (application-rules.ts).
 */
export function parseClientSettings(value: unknown): ClientSettings | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const known = [
    'redirectUris',
    'postLogoutRedirectUris',
    'clientAuthMethod',
    'jwks',
    'jwksUri',
    'backchannelLogoutUri',
  ];
  if (Object.keys(record).some((key) => !known.includes(key))) return null;
  const { redirectUris, postLogoutRedirectUris, clientAuthMethod, jwks, jwksUri } = record;
  const logoutUri = record.backchannelLogoutUri;
  if (
    logoutUri !== undefined &&
    logoutUri !== null &&
    (typeof logoutUri !== 'string' || logoutUri.length > MAX_JWKS_URI_LENGTH)
  ) {
    return null;
  }
  if (jwks !== undefined && jwks !== null && (typeof jwks !== 'object' || Array.isArray(jwks))) {
    return null;
  }
  if (
    jwksUri !== undefined &&
    jwksUri !== null &&
    (typeof jwksUri !== 'string' || jwksUri.length > MAX_JWKS_URI_LENGTH)
  ) {
    return null;
  }
  if (redirectUris !== undefined && !uriList(redirectUris)) return null;
  if (postLogoutRedirectUris !== undefined && !uriList(postLogoutRedirectUris)) return null;
  if (
    clientAuthMethod !== undefined &&
    !(CLIENT_AUTH_METHODS as readonly unknown[]).includes(clientAuthMethod)
  ) {
    return null;
  }
  return {
    redirectUris,
    postLogoutRedirectUris,
    authMethod: clientAuthMethod as ClientAuthMethod | undefined,
    jwks: jwks as ClientJwks | null | undefined,
    jwksUri: jwksUri,
    backchannelLogoutUri: logoutUri,
  };
}

const unique = (values: string[] | undefined): string[] | null =>
  values === undefined ? null : [...new Set(values)];

/**
 * SHA-256 of the client settings a change sends (each list as stored: duplicates dropped, in
 * order; a setting not sent is null). A confirmation carries it, so it confirms this change and
 * no other. The keys (a JWKS in canonical form, a jwks_uri; "removed" and "not sent" told
 * apart) are bound only when sent, so a change without keys has the digest it always had.
 */
export function clientSettingsDigest(settings: ClientSettings): string {
  const keys =
    settings.jwks === undefined && settings.jwksUri === undefined
      ? []
      : [keyValue(settings.jwks, canonicalJwks), keyValue(settings.jwksUri, String)];
  // The logout URI likewise: bound only when sent, so older digests stay as they were.
  const logout =
    settings.backchannelLogoutUri === undefined
      ? []
      : [{ backchannelLogoutUri: keyValue(settings.backchannelLogoutUri, String) }];
  return sha256Hex(
    JSON.stringify([
      unique(settings.redirectUris),
      unique(settings.postLogoutRedirectUris),
      settings.authMethod ?? null,
      ...keys,
      ...logout,
    ]),
  );
}

/** A key setting in the digest: not sent, removed (null) or its value, three distinct forms. */
function keyValue<T>(value: T | null | undefined, form: (value: T) => string | null): unknown {
  if (value === undefined) return { sent: false };
  return value === null ? { removed: true } : { value: form(value) };
}

const sameSet = (a: string[], b: string[]): boolean => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
};

/**
 * The client settings `settings` would change on `current`: lists compared as sets (the order
 * of registered URIs decides nothing), the method by value. Empty: no confirmation needed.
 */
export function changedClientSettings(
  current: Pick<
    Application,
    | 'redirectUris'
    | 'postLogoutRedirectUris'
    | 'clientAuthMethod'
    | 'jwks'
    | 'jwksUri'
    | 'backchannelLogoutUri'
  >,
  settings: ClientSettings,
): ClientSetting[] {
  const changed: ClientSetting[] = [];
  if (settings.redirectUris && !sameSet(settings.redirectUris, current.redirectUris)) {
    changed.push('redirectUris');
  }
  if (
    settings.postLogoutRedirectUris &&
    !sameSet(settings.postLogoutRedirectUris, current.postLogoutRedirectUris)
  ) {
    changed.push('postLogoutRedirectUris');
  }
  if (settings.authMethod !== undefined && settings.authMethod !== current.clientAuthMethod) {
    changed.push('authMethod');
  }
  if (settings.jwks !== undefined && canonicalJwks(settings.jwks) !== canonicalJwks(current.jwks)) {
    changed.push('jwks');
  }
  if (settings.jwksUri !== undefined && settings.jwksUri !== current.jwksUri) {
    changed.push('jwksUri');
  }
  // A new address needs the confirmation; removing the address (null) needs none.
  const logoutUri = settings.backchannelLogoutUri;
  if (typeof logoutUri === 'string' && logoutUri !== current.backchannelLogoutUri) {
    changed.push('backchannelLogoutUri');
  }
  return changed;
}
