import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { decimalId, MAX_BIGINT_ID } from '../../common/validation/path-ids';
import { AuditLog } from '../audit/audit-log.service';
import { AuditModule } from '../audit/audit.module';

/** What `user passkeys remove` did. */
export interface PasskeyRecoveryResult {
  userId: string;
  username: string;
  removed: { id: string; name: string }[];
}

/**
 * Recovery of an account that lost every passkey (docs/console.md, "Passkeys and
 * confirmations"): the console cannot help, since removing a passkey needs a confirmation with
 * one. The admin CLI removes all of the user's passkeys, with their open ceremonies and unspent
 * confirmations, and writes one audit entry without an actor (`details.via = 'cli'`), in one
 * transaction. The next passkey is a first one again (a fresh password sign-in).
 */
@Injectable()
export class PasskeyRecovery {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
  ) {}

  /** `user`: a decimal id, or else a username (case-insensitive); unknown → 404 not_found. */
  async removeAll(user: string): Promise<PasskeyRecoveryResult> {
    return this.dataSource.transaction(async (manager) => {
      const byId = decimalId(user, MAX_BIGINT_ID) !== null;
      const [found] = await manager.query<{ id: string; username: string }[]>(
        byId
          ? 'SELECT id, username FROM users WHERE id = $1::bigint FOR UPDATE'
          : 'SELECT id, username FROM users WHERE lower(username) = lower($1) FOR UPDATE',
        [user],
      );
      if (!found) throw new AppError(ErrorCode.NotFound, `No such user: ${user}`);
      const userId = String(found.id);
      const removed = await manager.query<{ id: string; name: string }[]>(
        `WITH gone AS (DELETE FROM passkey_credentials WHERE user_id = $1 RETURNING id, name, created_at)
         SELECT id, name FROM gone ORDER BY created_at, id`,
        [userId],
      );
      await manager.query('DELETE FROM passkey_ceremonies WHERE user_id = $1', [userId]);
      await manager.query(
        'DELETE FROM passkey_confirmations WHERE user_id = $1 AND spent_at IS NULL',
        [userId],
      );
      await this.audit.record(
        {
          applicationId: null,
          actorUserId: null,
          action: 'passkey.remove_all',
          target: `user:${userId}`,
          details: { via: 'cli', removed: removed.length, passkeyIds: removed.map((p) => p.id) },
          ip: '',
        },
        manager,
      );
      return { userId, username: found.username, removed };
    });
  }
}

/** PasskeyRecovery alone, for the admin CLI: no console, sessions or WebAuthn. */
@Module({
  imports: [AuditModule],
  providers: [PasskeyRecovery],
  exports: [PasskeyRecovery],
})
export class PasskeyRecoveryModule {}
