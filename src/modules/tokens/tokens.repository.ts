import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A revoked token: its id and scope, for the event that reports it. */
export interface RevokedToken {
  id: string;
  scope: string;
}

/** A revoked token of one user, with its application. */
export interface RevokedOfUser extends RevokedToken {
  applicationId: number;
}

/** What a client's revocation request ended (RFC 7009): the grant's user and scope, and the count. */
export interface RevokedGrant {
  userId: string;
  scope: string;
  revoked: number;
}

interface TokenRow {
  id: string;
  familyId: string | null;
  userId: string;
  scope: string;
}

/**
 * Revocations of `oauth_tokens`, each in the caller's transaction (the caller records the
 * `token_revoked` events through EventsService in the same transaction). Only live tokens are
 * touched; a row keeps its first `revoked_at`.
 */
@Injectable()
export class TokensRepository {
  /**
   * When each application last got tokens for `userId` (a code exchange or a refresh: every
   * rotation inserts a row), as far as the rows the purge has kept tell.
   */
  async lastIssuedPerApplication(
    manager: EntityManager,
    userId: string,
  ): Promise<Map<number, Date>> {
    const rows = await manager.query<{ application_id: number; last: Date }[]>(
      `SELECT application_id, max(created_at) AS last FROM oauth_tokens
       WHERE user_id = $1 GROUP BY application_id`,
      [userId],
    );
    return new Map(rows.map((row) => [row.application_id, row.last]));
  }

  /** Every live token of the user for the application (docs/contract/users.md#states-of-a-user-in-an-application: disable, revoke). */
  async revokeOfRelation(
    manager: EntityManager,
    applicationId: number,
    userId: string,
    now: Date,
  ): Promise<RevokedToken[]> {
    const [rows] = await manager.query<[RevokedToken[], number]>(
      `UPDATE oauth_tokens SET revoked_at = $3
       WHERE application_id = $1 AND user_id = $2 AND revoked_at IS NULL
       RETURNING id::text AS id, scope`,
      [applicationId, userId, now],
    );
    return rows;
  }

  /**
   * Every live token of `userId` at every application (a password reset: docs/accounts.md,
   * "Password reset"), found through the user's relations (`app_users`: every token comes from an
   * authorization, which relates the user first) to use `idx_oauth_tokens_application_user`.
   * Repeated until a pass finds nothing, as revokeRefreshFamily: a refresh that held its token's
   * lock commits a successor the pass before could not see. Tokens of the applications in order.
   */
  async revokeOfUser(manager: EntityManager, userId: string, now: Date): Promise<RevokedOfUser[]> {
    const revoked: RevokedOfUser[] = [];
    for (;;) {
      const [rows] = await manager.query<[RevokedOfUser[], number]>(
        `UPDATE oauth_tokens t SET revoked_at = $2
         FROM app_users r
         WHERE r.user_id = $1 AND t.application_id = r.application_id AND t.user_id = r.user_id
           AND t.revoked_at IS NULL
         RETURNING t.application_id AS "applicationId", t.id::text AS id, t.scope`,
        [userId, now],
      );
      if (rows.length === 0) break;
      revoked.push(...rows);
    }
    return revoked.sort((a, b) => a.applicationId - b.applicationId);
  }

  /** Every token issued from code `codeId` (a replayed code, RFC 6749 section 4.1.2). */
  async revokeIssuedFromCode(manager: EntityManager, codeId: string, now: Date): Promise<number> {
    const [, revoked] = await manager.query<[unknown, number]>(
      'UPDATE oauth_tokens SET revoked_at = $2 WHERE code_id = $1 AND revoked_at IS NULL',
      [codeId, now],
    );
    return revoked;
  }

  /** Every token of a family (a replayed refresh token, RFC 9700 section 4.14.2). */
  async revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<number> {
    const [, revoked] = await manager.query<[unknown, number]>(
      'UPDATE oauth_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL',
      [familyId, now],
    );
    return revoked;
  }

  /**
   * The live row holding access token `accessHash` of application `applicationId`: the access
   * token and the refresh token it was issued with (RFC 7009 section 2.1 lets revoking an access
   * token end its refresh token). Null when no live row of that application holds it.
   */
  async revokeAccessToken(
    manager: EntityManager,
    applicationId: number,
    accessHash: string,
    now: Date,
  ): Promise<RevokedGrant | null> {
    const [rows] = await manager.query<[Omit<RevokedGrant, 'revoked'>[], number]>(
      `UPDATE oauth_tokens SET revoked_at = $3
       WHERE access_token_hash = $1 AND application_id = $2 AND revoked_at IS NULL
       RETURNING user_id::text AS "userId", scope`,
      [accessHash, applicationId, now],
    );
    return rows[0] ? { ...rows[0], revoked: 1 } : null;
  }

  /**
   * Every live token of the family of refresh token `refreshHash` of application `applicationId`
   * (RFC 7009 section 2.1: revoking a refresh token ends the grant). The presented row is locked
   * first, so a refresh of it in flight commits its successor before the family is read; the
   * family is then revoked until a pass finds nothing (each statement sees what concurrent
   * refreshes committed meanwhile). Null when nothing was revoked.
   */
  async revokeRefreshFamily(
    manager: EntityManager,
    applicationId: number,
    refreshHash: string,
    now: Date,
  ): Promise<RevokedGrant | null> {
    const [target] = await manager.query<TokenRow[]>(
      `SELECT id::text AS id, family_id AS "familyId", user_id::text AS "userId", scope
       FROM oauth_tokens WHERE refresh_token_hash = $1 AND application_id = $2 FOR UPDATE`,
      [refreshHash, applicationId],
    );
    if (!target) return null;
    let revoked = 0;
    for (;;) {
      const [, count] = await manager.query<[unknown, number]>(
        `UPDATE oauth_tokens SET revoked_at = $3
         WHERE (id = $1 OR family_id = $2) AND revoked_at IS NULL`,
        [target.id, target.familyId, now],
      );
      if (count === 0) break;
      revoked += count;
    }
    return revoked === 0 ? null : { userId: target.userId, scope: target.scope, revoked };
  }
}
