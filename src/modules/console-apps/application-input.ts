import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { CLIENT_AUTH_METHODS } from '../applications/application.entity';
import type { ApplicationSettings, NewApplication } from '../applications/applications.service';
import {
  invalidBody,
  objectBody,
  optionalBoolean,
  optionalEnum,
  optionalString,
  optionalStringList,
  type BodyFields,
} from './console-input';

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

/** What the audit log keeps of a settings change: the fields sent, with their new values. */
export function settingsDetails(
  settings: ApplicationSettings,
): Record<string, string | boolean | string[]> {
  const details: Record<string, string | boolean | string[]> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) details[key] = value as string | boolean | string[];
  }
  return details;
}
