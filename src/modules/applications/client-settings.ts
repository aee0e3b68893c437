import { sha256Hex } from '../../common/crypto/hash';
import { CLIENT_AUTH_METHODS, type Application, type ClientAuthMethod } from './application.entity';

/**
 * The OAuth client settings of an application: where codes and tokens may go (redirect URIs),
 * where logout may return (post-logout redirect URIs) and how the client proves itself (the
 * client authentication method, whose switch to `secret` mints a secret). Changing any of them
 * in the console needs a `client_settings.update` passkey confirmation bound to the change
 * (docs/console.md, docs/security.md "Step-up confirmations").
 */
export interface ClientSettings {
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
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
 * clientAuthMethod?}`, the names of the settings body), or null when it is not that shape.
 */
export function parseClientSettings(value: unknown): ClientSettings | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const known = ['redirectUris', 'postLogoutRedirectUris', 'clientAuthMethod'];
  if (Object.keys(record).some((key) => !known.includes(key))) return null;
  const { redirectUris, postLogoutRedirectUris, clientAuthMethod } = record;
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
  };
}

const unique = (values: string[] | undefined): string[] | null =>
  values === undefined ? null : [...new Set(values)];

/**
 * SHA-256 of the client settings a change sends (each list as stored: duplicates dropped, in
 * order; a setting not sent is null). A confirmation carries it, so it confirms this change and
 * no other.
 */
export function clientSettingsDigest(settings: ClientSettings): string {
  return sha256Hex(
    JSON.stringify([
      unique(settings.redirectUris),
      unique(settings.postLogoutRedirectUris),
      settings.authMethod ?? null,
    ]),
  );
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
  current: Pick<Application, 'redirectUris' | 'postLogoutRedirectUris' | 'clientAuthMethod'>,
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
  return changed;
}
