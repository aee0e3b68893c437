/**
 * userinfo `upstreams[]` as a fragment the userinfo statement composes, so the token, its user and
 * the bound identities are read in one round trip (docs/performance/oauth.md). This module owns
 * `upstream_identities`: its name and columns are written here and in the entity, nowhere else.
 */
import { providerDisplayNameSql } from '../providers/provider-name-sql';
import { toUserinfoUpstream, type BoundIdentity, type UserinfoUpstream } from './userinfo-upstream';

/**
 * `LEFT JOIN LATERAL (…) <alias> ON true`, giving column `<alias>.upstreams`: the identities
 * bound to user `userId` (an SQL expression) as one JSON array ordered by id, or NULL when none
 * is. One probe of idx_upstream_identities_user_id (and of pk_upstream_providers per identity,
 * for the provider's name); always exactly one row, so it never drops or repeats the outer row.
 */
export const userinfoUpstreamsJoin = (alias: string, userId: string): string =>
  `LEFT JOIN LATERAL (
     SELECT json_agg(json_build_object('id', ${alias}_i.id, 'providerId', ${alias}_i.provider_id,
         'subject', ${alias}_i.subject, 'profile', ${alias}_i.profile,
         'providerName', ${providerDisplayNameSql(`${alias}_i.provider_id`)}) ORDER BY ${alias}_i.id) AS upstreams
       FROM upstream_identities ${alias}_i
      WHERE ${alias}_i.user_id = ${userId}) ${alias} ON true`;

/** The `upstreams` column of userinfoUpstreamsJoin (parsed JSON, or NULL) as userinfo's array. */
export function userinfoUpstreamsOf(column: BoundIdentity[] | null): UserinfoUpstream[] {
  return (column ?? []).map(toUserinfoUpstream);
}
