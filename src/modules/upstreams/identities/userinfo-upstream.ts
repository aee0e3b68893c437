/** The userinfo `upstreams[]` element, drawn from a bound identity (no database access). */
import type { UpstreamIdentity, UpstreamProfileSnapshot } from './upstream-identity.entity';

/**
 * userinfo `upstreams[]`: the element shape integrations of the original service declare
 * (docs/oauth.md, "User info and emails"), plus `username`, kept for readers of the earlier
 * shape. The string fields are strings or null, never another type; `upstream_id` is null (a
 * provider here is named by its string id, `upstream_type`, and has no integer id).
 */
export interface UserinfoUpstream {
  id: number;
  upstream_id: number | null;
  upstream_name: string | null;
  upstream_type: string;
  upstream_icon: string | null;
  upstream_user_id: string;
  upstream_username: string | null;
  upstream_email: string | null;
  upstream_avatar: string | null;
  provider_data: Record<string, unknown>;
  username: string | null;
}

/** A bound identity as the userinfo fragment reads it, with its provider's configured name. */
export type BoundIdentity = Pick<UpstreamIdentity, 'id' | 'providerId' | 'subject' | 'profile'> & {
  providerName: string | null;
};

export function toUserinfoUpstream(identity: BoundIdentity): UserinfoUpstream {
  // The snapshot is jsonb written over several versions: each field is checked, not trusted.
  const profile: Partial<Record<keyof UpstreamProfileSnapshot, unknown>> = identity.profile ?? {};
  const username = textOrNull(profile.username);
  return {
    id: identity.id,
    upstream_id: null,
    upstream_name: textOrNull(identity.providerName),
    upstream_type: identity.providerId,
    // No icon is configured for a provider.
    upstream_icon: null,
    upstream_user_id: identity.subject,
    upstream_username: username,
    // What the provider said at the last sign-in, verified or not; the user's own `email` is
    // decided by the account rules, not by this snapshot.
    upstream_email: textOrNull(profile.email),
    upstream_avatar: textOrNull(profile.avatar),
    provider_data: isRecord(profile.providerData) ? profile.providerData : {},
    username,
  };
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
