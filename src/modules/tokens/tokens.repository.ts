import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A revoked token: its id and scope, for the event that reports it. */
export interface RevokedToken {
  id: string;
  scope: string;
}

/**
 * Revocations of `oauth_tokens`, each in the caller's transaction (the caller records the
 * `token_revoked` events through EventsService in the same transaction). Only live tokens are
 * touched; a row keeps its first `revoked_at`.
 */
@Injectable()
export class TokensRepository {
  /** Every live token of the user for the application (spec section 3: disable, revoke). */
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
}
