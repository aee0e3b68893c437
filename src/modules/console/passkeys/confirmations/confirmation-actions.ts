/**
 * What a passkey confirmation is for: the console operations that need one, the target fields
 * each is bound to, and the binding of an action on a target.
 */
import { decimalId, MAX_BIGINT_ID } from '../../../../common/validation/path-ids';
import { isUuid, type Binding } from '../../../passkeys/passkey-ceremonies';

/** Console operations that need a passkey confirmation (docs/console.md). */
export const CONFIRMATION_ACTIONS = [
  'key.create',
  'key.rotate',
  'key.revoke',
  'key.delete',
  'client_secret.reset',
  'application.delete',
  'passkey.register',
  'passkey.remove',
  'upstream.unbind',
  'console_role.grant',
  'console_role.revoke',
  'client_settings.update',
  'upstream.bind',
  'webhook.create',
  'webhook.update_url',
  'webhook.rotate_secret',
  'webhook.delete',
  'webhook.replay',
] as const;
export type ConfirmationAction = (typeof CONFIRMATION_ACTIONS)[number];

export interface ConfirmationTarget {
  applicationId?: number;
  keyId?: number;
  passkeyId?: string;
  upstreamIdentityId?: number;
  /** console_role.*: the user whose role changes (decimal text, as user ids elsewhere). */
  targetUserId?: string;
  /** console_role.*: the role given, or the role withdrawn. */
  role?: string;
  /**
   * The digest of the change: client_settings.update clientSettingsDigest
   * (applications/client-settings.ts); webhook.create, webhook.update_url and webhook.replay
   * console/webhooks/webhook-digests.ts.
   */
  changeDigest?: string;
  /** upstream.bind: the provider to bind. */
  providerId?: string;
  /** webhook.* but webhook.create: the endpoint. */
  webhookId?: number;
}

export const PASSKEY_CONFIRMATION_HEADER = 'x-passkey-confirmation';

/** The target fields each action is bound to; any other field of a target is ignored. */
export const ACTION_TARGET_FIELDS: Readonly<
  Record<ConfirmationAction, readonly (keyof ConfirmationTarget)[]>
> = {
  'key.create': ['applicationId'],
  'key.rotate': ['applicationId', 'keyId'],
  'key.revoke': ['applicationId', 'keyId'],
  'key.delete': ['applicationId', 'keyId'],
  'client_secret.reset': ['applicationId'],
  'application.delete': ['applicationId'],
  'passkey.register': [],
  'passkey.remove': ['passkeyId'],
  'upstream.unbind': ['upstreamIdentityId'],
  'console_role.grant': ['applicationId', 'targetUserId', 'role'],
  'console_role.revoke': ['applicationId', 'targetUserId', 'role'],
  'client_settings.update': ['applicationId', 'changeDigest'],
  'upstream.bind': ['providerId'],
  'webhook.create': ['applicationId', 'changeDigest'],
  'webhook.update_url': ['applicationId', 'webhookId', 'changeDigest'],
  'webhook.rotate_secret': ['applicationId', 'webhookId'],
  'webhook.delete': ['applicationId', 'webhookId'],
  'webhook.replay': ['applicationId', 'webhookId', 'changeDigest'],
};

/** A confirmation token is good for this long after the assertion (the rule: at most 5 minutes). */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

/** Ids of applications, keys, upstream identities and webhooks are `integer` columns. */
const isDatabaseInteger = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647;

/** User ids are `bigint` columns, in decimal text without leading zeros. */
const isUserId = (value: unknown): boolean =>
  typeof value === 'string' && decimalId(value, MAX_BIGINT_ID) !== null;

const isMemberRole = (value: unknown): boolean => value === 'admin' || value === 'viewer';

export const isConfirmationAction = (value: unknown): value is ConfirmationAction =>
  (CONFIRMATION_ACTIONS as readonly unknown[]).includes(value);

/**
 * The binding of `action` on `target`: the fields the action names, each present; null when
 * one is missing.
 */
export function bindingOf(action: ConfirmationAction, target: ConfirmationTarget): Binding | null {
  const fields = ACTION_TARGET_FIELDS[action];
  const valid: Record<keyof ConfirmationTarget, (value: unknown) => boolean> = {
    applicationId: isDatabaseInteger,
    keyId: isDatabaseInteger,
    passkeyId: isUuid,
    upstreamIdentityId: isDatabaseInteger,
    targetUserId: isUserId,
    role: isMemberRole,
    changeDigest: (value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value),
    providerId: (value) => typeof value === 'string' && value.length >= 1 && value.length <= 64,
    webhookId: isDatabaseInteger,
  };
  if (fields.some((field) => !valid[field](target[field]))) return null;
  return {
    action,
    applicationId: fields.includes('applicationId') ? (target.applicationId ?? null) : null,
    keyId: fields.includes('keyId') ? (target.keyId ?? null) : null,
    passkeyId: fields.includes('passkeyId') ? (target.passkeyId ?? null) : null,
    upstreamIdentityId: fields.includes('upstreamIdentityId')
      ? (target.upstreamIdentityId ?? null)
      : null,
    targetUserId: fields.includes('targetUserId') ? (target.targetUserId ?? null) : null,
    role: fields.includes('role') ? (target.role ?? null) : null,
    changeDigest: fields.includes('changeDigest') ? (target.changeDigest ?? null) : null,
    providerId: fields.includes('providerId') ? (target.providerId ?? null) : null,
    webhookId: fields.includes('webhookId') ? (target.webhookId ?? null) : null,
  };
}
