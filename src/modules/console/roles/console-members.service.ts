import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { AppUsersService } from '../../users/app-users.service';
import type { ConsoleRole } from './console-access.service';
import type { MemberRole } from './console-member.entity';

/** A role change a console user asks for: give `role`, or withdraw whatever role is held. */
export type RoleChange = { kind: 'grant'; role: MemberRole } | { kind: 'revoke' };

/** A change that passed every rule: `role` is the new role (grant) or the withdrawn one. */
export interface PlannedRoleChange {
  kind: RoleChange['kind'];
  applicationId: number;
  targetUserId: string;
  previous: MemberRole | null;
  role: MemberRole;
}

/** One row of the members list: the owner first, then the members. */
export interface MemberRow {
  userId: string;
  username: string;
  email: string;
  role: ConsoleRole;
  grantedBy: { id: string; username: string } | null;
  grantedAt: Date | null;
}

interface MemberSqlRow {
  user_id: string;
  username: string;
  email: string;
  role: ConsoleRole;
  granted_by: string | null;
  granted_by_username: string | null;
  updated_at: Date | null;
}

const LIST_SQL = `
  SELECT u.id AS user_id, u.username, u.email, 'owner' AS role,
         NULL AS granted_by, NULL AS granted_by_username, NULL::timestamptz AS updated_at, 0 AS ord
    FROM applications a JOIN users u ON u.id = a.owner_id
   WHERE a.id = $1
  UNION ALL
  SELECT u.id, u.username, u.email, cm.role, g.id, g.username, cm.updated_at,
         CASE cm.role WHEN 'admin' THEN 1 ELSE 2 END
    FROM console_members cm
    JOIN users u ON u.id = cm.user_id
    LEFT JOIN users g ON g.id = cm.granted_by
   WHERE cm.application_id = $1
  ORDER BY ord, username`;

const conflict = (message: string): AppError => new AppError(ErrorCode.Conflict, message);

/**
 * Console roles below the owner (table console_members; docs/console.md, "Roles"). The owner
 * may give and withdraw admin and viewer; an admin only viewer. A role is given to a user of
 * the application (one with a relation to it, in any group, enabled or not) and is independent
 * of that relation afterwards: no API key can give, raise or take away a console role.
 */
@Injectable()
export class ConsoleMembers {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly appUsers: AppUsersService,
    private readonly clock: Clock,
  ) {}

  async list(applicationId: number): Promise<MemberRow[]> {
    const rows = await this.dataSource.query<MemberSqlRow[]>(LIST_SQL, [applicationId]);
    return rows.map((row) => ({
      userId: String(row.user_id),
      username: row.username,
      email: row.email,
      role: row.role,
      grantedBy:
        row.granted_by === null
          ? null
          : { id: String(row.granted_by), username: row.granted_by_username ?? '' },
      grantedAt: row.updated_at,
    }));
  }

  /**
   * Checks `change` of `targetUserId`'s role by an actor holding `actorRole`, in this order:
   * the target is a user of the application (404 user_not_found) and not its owner (409); the
   * actor may make this change (403 forbidden: admin roles are the owner's to give and take);
   * the change changes something (409 when the role is held already; 404 not_found when there
   * is no role to withdraw).
   */
  async plan(
    actorRole: ConsoleRole,
    applicationId: number,
    targetUserId: string,
    change: RoleChange,
  ): Promise<PlannedRoleChange> {
    await this.appUsers.get(applicationId, targetUserId);
    const [row] = await this.dataSource.query<{ owner: boolean; role: MemberRole | null }[]>(
      `SELECT a.owner_id IS NOT DISTINCT FROM $2::bigint AS owner, cm.role
         FROM applications a
         LEFT JOIN console_members cm ON cm.application_id = a.id AND cm.user_id = $2
        WHERE a.id = $1`,
      [applicationId, targetUserId],
    );
    if (row?.owner) throw conflict("The application's owner has every console role already");
    const previous = row?.role ?? null;
    const role = change.kind === 'grant' ? change.role : previous;
    const needed = role === 'admin' || previous === 'admin' ? 'owner' : 'admin';
    if (needed === 'owner' && actorRole !== 'owner') {
      throw new AppError(ErrorCode.Forbidden, 'Only the owner gives or withdraws the admin role');
    }
    if (role === null) throw new AppError(ErrorCode.NotFound, 'This user has no console role');
    if (change.kind === 'grant' && previous === role) {
      throw conflict(`This user has the ${role} role already`);
    }
    return { kind: change.kind, applicationId, targetUserId, previous, role };
  }

  /**
   * Applies a planned change in the caller's transaction, only if the role is still the one
   * planned (409 conflict otherwise: someone changed it meanwhile).
   */
  async apply(manager: EntityManager, change: PlannedRoleChange, grantedBy: string): Promise<void> {
    const { applicationId, targetUserId, previous, role } = change;
    const now = this.clock.now();
    // Each statement is wrapped in a SELECT so that every driver answers the rows themselves
    // (an UPDATE or DELETE through node-postgres answers [rows, count]).
    let rows: unknown[];
    if (change.kind === 'revoke') {
      rows = await manager.query<unknown[]>(
        `WITH gone AS (
           DELETE FROM console_members WHERE application_id = $1 AND user_id = $2 AND role = $3
           RETURNING user_id)
         SELECT user_id FROM gone`,
        [applicationId, targetUserId, role],
      );
    } else if (previous === null) {
      rows = await manager.query<unknown[]>(
        `WITH added AS (
           INSERT INTO console_members (application_id, user_id, role, granted_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING RETURNING user_id)
         SELECT user_id FROM added`,
        [applicationId, targetUserId, role, grantedBy, now],
      );
    } else {
      rows = await manager.query<unknown[]>(
        `WITH changed AS (
           UPDATE console_members SET role = $3, granted_by = $4, updated_at = $5
            WHERE application_id = $1 AND user_id = $2 AND role = $6 RETURNING user_id)
         SELECT user_id FROM changed`,
        [applicationId, targetUserId, role, grantedBy, now, previous],
      );
    }
    if (rows.length === 0) throw conflict('The console role changed meanwhile; reload and retry');
  }
}
