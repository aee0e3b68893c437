import type { ApplicationSettings, NewApplication } from '../../applications/application-rules';
import { profileOf } from '../../applications/security-profile';
import type { ClientSetting } from '../../applications/client-settings';
import type { ClientJwks } from '../../applications/client-jwks';
import type { AuditDetails } from '../../audit/audit-log.entity';
import type { ApplicationSettingsBody, NewApplicationBody } from './application.dto';

/** POST /api/console/applications: the owner, and no redirect URIs unless sent. */
export function toNewApplication(body: NewApplicationBody, ownerId: string): NewApplication {
  return { ...common(body), name: body.name, redirectUris: body.redirectUris ?? [], ownerId };
}

/** PATCH /api/console/applications/{id}: the fields sent, in the audit log's order. */
export function toSettings(body: ApplicationSettingsBody): ApplicationSettings {
  return {
    ...common(body),
    enabled: body.enabled,
    requiredUpstreams: body.requiredUpstreams,
    // Settings only: a logout URI is set with a passkey confirmation, never on creation.
    backchannelLogoutUri: body.backchannelLogoutUri,
    backchannelLogoutSessionRequired: body.backchannelLogoutSessionRequired,
  };
}

/** The fields both bodies share, under the names ApplicationsService uses. */
function common(
  body: NewApplicationBody | ApplicationSettingsBody,
): Omit<
  ApplicationSettings,
  'enabled' | 'requiredUpstreams' | 'backchannelLogoutUri' | 'backchannelLogoutSessionRequired'
> {
  return {
    name: body.name,
    description: body.description,
    homeUrl: body.homeUrl,
    logo: body.logo,
    redirectUris: body.redirectUris,
    postLogoutRedirectUris: body.postLogoutRedirectUris,
    authMethod: body.clientAuthMethod,
    jwks: body.jwks as ClientJwks | null | undefined,
    jwksUri: body.jwksUri,
    isPublic: body.isPublic,
    requireVerifiedEmail: body.requireVerifiedEmail,
    signUpEnabled: body.signUpEnabled,
    requirePushedAuthorizationRequests: body.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: body.dpopBoundAccessTokens,
    deviceCodeGrant: body.deviceCodeGrant,
    securityProfile:
      body.securityProfile === undefined ? undefined : profileOf(body.securityProfile),
    idTokenSignedResponseAlg: body.idTokenSignedResponseAlg,
  };
}

/** The audit action of each OAuth client setting that a change sets to a new value. */
const CLIENT_SETTING_ACTIONS: Record<ClientSetting, string> = {
  redirectUris: 'application.redirect_uris.update',
  postLogoutRedirectUris: 'application.post_logout_redirect_uris.update',
  authMethod: 'application.client_auth_method.update',
  jwks: 'application.client_keys.update',
  jwksUri: 'application.client_keys.update',
  backchannelLogoutUri: 'application.backchannel_logout_uri.update',
};

/**
 * What the audit log keeps of a setting: its value, but of a JWKS only the keys' ids (their
 * `kid`, else their type), and a removed jwksUri or logout URI as ''.
 */
function auditValue(key: string, value: unknown): string | boolean | string[] {
  if (key === 'jwks') {
    const jwks = value as ClientJwks | null;
    return jwks === null ? [] : jwks.keys.map((jwk) => jwk.kid ?? jwk.kty);
  }
  if (key === 'jwksUri' || key === 'backchannelLogoutUri') return (value as string | null) ?? '';
  return value as string | boolean | string[];
}

/**
 * What the audit log keeps of a settings change, each sent field in exactly one entry: every
 * changed client setting as its own action (with its new value; the method also with the old
 * one), every other field sent, with its new value, in `application.update`. A secret the
 * change issues is recorded by the caller (`client_secret.issue`).
 */
export function settingsAuditEntries(
  settings: ApplicationSettings,
  changed: ClientSetting[],
  previousAuthMethod: string,
): { action: string; details: AuditDetails }[] {
  const entries: { action: string; details: AuditDetails }[] = [];
  const rest: AuditDetails = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (changed.includes(key as ClientSetting)) {
      const details: AuditDetails =
        key === 'authMethod'
          ? { clientAuthMethod: value as string, from: previousAuthMethod }
          : { [key === 'jwks' ? 'jwksKeys' : key]: auditValue(key, value) };
      entries.push({ action: CLIENT_SETTING_ACTIONS[key as ClientSetting], details });
    } else {
      rest[key === 'jwks' ? 'jwksKeys' : key] = auditValue(key, value);
    }
  }
  if (Object.keys(rest).length > 0)
    entries.unshift({ action: 'application.update', details: rest });
  return entries;
}
