import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { CLIENT_AUTH_METHODS } from '../../applications/application.entity';
import type { ApplicationSettings, NewApplication } from '../../applications/applications.service';
import type { ClientSetting } from '../../applications/client-settings';
import type { AuditDetails } from '../../audit/audit-log.entity';
import {
  invalidBody,
  objectBody,
  optionalBoolean,
  optionalEnum,
  optionalString,
  optionalStringList,
  type BodyFields,
} from '../console-input';

const TEXT_MAX = 2000;
const URL_MAX = 2000;
const MAX_REDIRECT_URIS = 20;

const CREATE_FIELDS = [
  'name',
  'description',
  'homeUrl',
  'logo',
  'redirectUris',
  'postLogoutRedirectUris',
  'clientAuthMethod',
  'isPublic',
  'requireVerifiedEmail',
] as const;
const SETTINGS_FIELDS = [...CREATE_FIELDS, 'enabled', 'requiredUpstreams'] as const;
const MAX_REQUIRED_UPSTREAMS = 20;

/** Fields both bodies share; the rules on their values are ApplicationsService's. */
function common(body: BodyFields): Omit<ApplicationSettings, 'enabled'> {
  return {
    name: optionalString(body, 'name', 100),
    description: optionalString(body, 'description', TEXT_MAX),
    homeUrl: optionalString(body, 'homeUrl', URL_MAX),
    logo: optionalString(body, 'logo', URL_MAX),
    redirectUris: optionalStringList(body, 'redirectUris', MAX_REDIRECT_URIS, URL_MAX),
    postLogoutRedirectUris: optionalStringList(
      body,
      'postLogoutRedirectUris',
      MAX_REDIRECT_URIS,
      URL_MAX,
    ),
    authMethod: optionalEnum(body, 'clientAuthMethod', CLIENT_AUTH_METHODS),
    isPublic: optionalBoolean(body, 'isPublic'),
    requireVerifiedEmail: optionalBoolean(body, 'requireVerifiedEmail'),
  };
}

/** POST /api/console/applications: name required, the rest optional. */
export function parseNewApplication(body: unknown, ownerId: string): NewApplication {
  const fields = common(objectBody(body, CREATE_FIELDS));
  if (fields.name === undefined) throw invalidBody('name is required');
  return { ...fields, name: fields.name, redirectUris: fields.redirectUris ?? [], ownerId };
}

/** PATCH /api/console/applications/{id}: at least one field (400 empty_body). */
export function parseSettings(body: unknown): ApplicationSettings {
  const record = objectBody(body, SETTINGS_FIELDS);
  const settings = {
    ...common(record),
    enabled: optionalBoolean(record, 'enabled'),
    // Shape only here; whether each id names a configured provider is the service's check.
    requiredUpstreams: optionalStringList(record, 'requiredUpstreams', MAX_REQUIRED_UPSTREAMS, 64),
  };
  if (Object.values(settings).every((value) => value === undefined)) {
    throw new AppError(ErrorCode.EmptyBody, `Send at least one of ${SETTINGS_FIELDS.join(', ')}`);
  }
  return settings;
}

/** The audit action of each OAuth client setting that a change sets to a new value. */
const CLIENT_SETTING_ACTIONS: Record<ClientSetting, string> = {
  redirectUris: 'application.redirect_uris.update',
  postLogoutRedirectUris: 'application.post_logout_redirect_uris.update',
  authMethod: 'application.client_auth_method.update',
};

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
          : { [key]: value as string[] };
      entries.push({ action: CLIENT_SETTING_ACTIONS[key as ClientSetting], details });
    } else {
      rest[key] = value as string | boolean | string[];
    }
  }
  if (Object.keys(rest).length > 0)
    entries.unshift({ action: 'application.update', details: rest });
  return entries;
}
