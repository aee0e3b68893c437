import { supersededTokenSql } from '../../../tokens/token-sql';
import { OAuthError } from '../../protocol/oauth-error';
import type { TokenStep } from './step';

// The presented refresh token (`t` in the refresh statements) must belong to the presenting
// client (`cl`), be neither revoked nor already rotated (but for the reuse interval), and not
// have expired (RFC 6749 section 6, RFC 9700 section 4.14.2). Checked in this order.

const invalid = (description: string): OAuthError => new OAuthError('invalid_grant', description);

/** Another client's token is treated as unknown (RFC 6749 section 6). */
export const refreshTokenOfClient: TokenStep<object, unknown> = {
  name: 'refresh_client',
  holds: 't.application_id = cl.id',
  failure: () => invalid('The refresh token is invalid'),
};

/**
 * A public client's refresh token bound to a DPoP key is used only with a proof of that key
 * (RFC 9449 section 5); `:jkt` is the thumbprint of the request's proof (NULL without one).
 * Checked before the replay rules, so that presenting a stolen bound token without its key
 * revokes nothing of the owner's.
 */
export const refreshTokenKeyMatches: TokenStep<object, unknown> = {
  name: 'refresh_dpop_key',
  holds: 't.refresh_dpop_jkt IS NULL OR t.refresh_dpop_jkt = :jkt',
  failure: () => invalid('The refresh token is bound to a DPoP key: send a proof of that key'),
};

export const refreshTokenNotRevoked: TokenStep<object, unknown> = {
  name: 'refresh_not_revoked',
  holds: 't.revoked_at IS NULL',
  failure: () => invalid('The refresh token has been revoked'),
};

/** What a failing refresh may do before it answers: revoke the presented token's family. */
export interface RefreshFailureContext {
  revokeFamily(): Promise<void>;
}

/**
 * A token that was already rotated is a replay: the whole family is revoked and the request
 * fails (RFC 9700 section 4.14.2) -- unless it was rotated at or after `:reuseSince` (now minus
 * REFRESH_TOKEN_REUSE_SECONDS; NULL when reuse is off): then it is the same client refreshing
 * twice at once (two tabs), and it gets a fresh pair of the same family (ADR 0003). The rotation
 * never moves rotated_at, so the interval counts from the first rotation and cannot extend
 * itself. Of concurrent refreshes of one token, the first rotates it; the others wait for its
 * row lock and re-evaluate this condition against the committed rotated_at (READ COMMITTED).
 */
export const refreshTokenNotReplayed: TokenStep<object, RefreshFailureContext> = {
  name: 'refresh_not_replayed',
  holds: 't.rotated_at IS NULL OR t.rotated_at >= :reuseSince',
  failure: async (_, context) => {
    await context.revokeFamily();
    return invalid('The refresh token was already used; its token family has been revoked');
  },
};

/**
 * A token of a branch that another branch has superseded is a replay too: the family is revoked
 * (RFC 9700 section 4.14.2). Two refreshes of one token within the reuse interval leave two
 * successors of one generation (two branches); once either rotates after the interval, the other
 * is superseded (tokens/token-sql.ts, supersededTokenSql), so after the interval at most one
 * branch stays usable. The rows it looks for were created at least the interval apart from the
 * presented token's own, so concurrent refreshes (the two tabs) do not meet it.
 */
export const refreshTokenNotSuperseded: TokenStep<object, RefreshFailureContext> = {
  name: 'refresh_not_superseded',
  holds: `NOT ${supersededTokenSql({ reuseSince: ':reuseSince', now: ':now' })}`,
  failure: async (_, context) => {
    await context.revokeFamily();
    return invalid(
      'The refresh token was superseded by another refresh of its family; the family has been revoked',
    );
  },
};

/** The `:reuseSince` of refreshTokenNotReplayed: the earliest rotation a reuse may follow. */
export function reuseSince(now: Date, reuseSeconds: number): Date | null {
  return reuseSeconds > 0 ? new Date(now.getTime() - reuseSeconds * 1000) : null;
}

export const refreshTokenNotExpired: TokenStep<object, unknown> = {
  name: 'refresh_expiry',
  holds: 't.refresh_expires_at > :now',
  failure: () => invalid('The refresh token has expired'),
};
