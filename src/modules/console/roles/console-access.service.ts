import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { positiveIntId } from '../../../common/validation/path-ids';
import type { ConsoleActor } from '../session/console-session';

/** A console role in one application; owner ⊃ admin ⊃ viewer (docs/console.md, "Roles"). */
export const CONSOLE_ROLES = ['owner', 'admin', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

const RANK: Record<ConsoleRole, number> = { viewer: 1, admin: 2, owner: 3 };

export interface RoleRow {
  applicationId: number;
  role: ConsoleRole;
}

// The owner by applications.owner_id; anyone else by a console_members row. Never by a group
// of app_users: those are the application's own data, which its API keys may change.
const ROLE_SQL = `
  SELECT a.id AS application_id,
         CASE WHEN a.owner_id = $1 THEN 'owner' ELSE cm.role END AS role
    FROM applications a
    LEFT JOIN console_members cm ON cm.application_id = a.id AND cm.user_id = $1
   WHERE (a.owner_id = $1 OR cm.user_id IS NOT NULL)`;

/**
 * Who may do what in the console, per application: the owner, or a member's role. Every
 * console query about an application goes through `require` first (for the routes, through
 * ApplicationRoleGuard and their @ApplicationRole; for confirmations, through the target check
 * of the action): no role answers 404, like a missing application, so the console tells nobody
 * which ids exist.
 */
@Injectable()
export class ConsoleAccess {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async roleIn(userId: string, applicationId: number): Promise<ConsoleRole | null> {
    const rows = await this.dataSource.query<{ role: ConsoleRole }[]>(`${ROLE_SQL} AND a.id = $2`, [
      userId,
      applicationId,
    ]);
    return rows[0]?.role ?? null;
  }

  /** The applications where the user has a console role, by id. */
  async rolesOf(userId: string): Promise<RoleRow[]> {
    const rows = await this.dataSource.query<{ application_id: number; role: ConsoleRole }[]>(
      `${ROLE_SQL} ORDER BY a.id`,
      [userId],
    );
    return rows.map((row) => ({ applicationId: row.application_id, role: row.role }));
  }

  /**
   * The actor's role in the application, at least `needed`: no role (or no such application,
   * or an id that cannot be one) → 404 not_found; a lower role → 403 forbidden.
   */
  async require(
    actor: ConsoleActor,
    applicationId: number | string,
    needed: ConsoleRole,
  ): Promise<ConsoleRole> {
    const id = toApplicationId(applicationId);
    const role = id === null ? null : await this.roleIn(actor.user.id, id);
    if (role === null) throw applicationNotFound();
    if (RANK[role] < RANK[needed]) {
      throw new AppError(ErrorCode.Forbidden, `This needs the ${needed} role in the application`);
    }
    return role;
  }
}

export function applicationNotFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'Application not found');
}

/**
 * A path's application id as a number, or null when it cannot name an application (the column
 * is `integer`).
 */
export function toApplicationId(raw: number | string): number | null {
  return positiveIntId(raw);
}
