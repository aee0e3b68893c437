import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLog } from '../../audit/audit-log.service';
import {
  ConsoleMembers,
  type PlannedRoleChange,
  type RoleChange,
} from '../roles/console-members.service';
import type { ConsoleActor } from '../session/console-session';
import { PasskeyConfirmations } from '../passkeys/confirmations/passkey-confirmations.service';
import { parseUserId } from '../../users/user-query';
import type { ScopedApplication } from '../roles/application-role';
import type { MemberRoleBody } from './member.dto';
import { toMemberView, type MemberView } from './member-views';

/**
 * Console access of an application (docs/console.md, "Roles"): admins list it; the owner
 * gives and withdraws admin and viewer, an admin viewer only; every change is confirmed with a
 * passkey (console_role.grant / console_role.revoke, bound to the application, the user and the
 * role) and written to the audit log in the change's transaction. Order, after the route's
 * @ApplicationRole('admin') (404/403): body (400) → target (404, 409) → the role this change
 * needs (403) → confirmation (403) → change.
 */
@Injectable()
export class ConsoleMemberChanges {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: ConsoleMembers,
    private readonly confirmations: PasskeyConfirmations,
    private readonly audit: AuditLog,
  ) {}

  async list({ applicationId }: ScopedApplication): Promise<MemberView[]> {
    return (await this.members.list(applicationId)).map(toMemberView);
  }

  async grant(
    actor: ConsoleActor,
    { applicationId, role: actorRole }: ScopedApplication,
    userId: string, // checked by the route's @PathUserId()
    { role }: MemberRoleBody,
    confirmation: string | undefined,
  ): Promise<MemberView> {
    const change = await this.members.plan(actorRole, applicationId, userId, {
      kind: 'grant',
      role,
    });
    await this.change(actor, 'console_role.grant', change, confirmation);
    const rows = await this.members.list(applicationId);
    return toMemberView(rows.find((row) => row.userId === userId)!);
  }

  async revoke(
    actor: ConsoleActor,
    { applicationId, role: actorRole }: ScopedApplication,
    rawUserId: string,
    confirmation: string | undefined,
  ): Promise<void> {
    const userId = parseUserId(rawUserId);
    const revoke: RoleChange = { kind: 'revoke' };
    const change = await this.members.plan(actorRole, applicationId, userId, revoke);
    await this.change(actor, 'console_role.revoke', change, confirmation);
  }

  /**
   * Spends the confirmation, makes the change and writes its audit record in one transaction:
   * when the change is refused (409, the role changed meanwhile) or fails (its audit record, say),
   * the confirmation is unspent again and the same token serves a retry, as for key operations.
   */
  private async change(
    actor: ConsoleActor,
    action: 'console_role.grant' | 'console_role.revoke',
    change: PlannedRoleChange,
    confirmation: string | undefined,
  ): Promise<void> {
    const { applicationId, targetUserId, role, previous } = change;
    await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        action,
        { applicationId, targetUserId, role },
        confirmation,
        manager,
      );
      await this.members.apply(manager, change, actor.user.id);
      await this.audit.record(
        {
          applicationId,
          actorUserId: actor.user.id,
          action,
          target: `user:${targetUserId}`,
          details: action === 'console_role.grant' ? { role, previousRole: previous } : { role },
          ip: actor.ip,
        },
        manager,
      );
    });
  }
}
