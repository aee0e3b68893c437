import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { parseUserId } from '../../users/user-query';
import { invalidBody } from '../../../common/validation/request-errors';
import { ConfirmationTargetRegistry } from '../passkeys/confirmations/confirmation-target-registry';
import type { ConfirmationTarget } from '../passkeys/confirmations/confirmation-actions';
import { ConsoleAccess } from '../roles/console-access.service';
import { isMemberRole, MEMBER_ROLES } from '../roles/console-member.entity';
import { ConsoleMembers, type RoleChange } from '../roles/console-members.service';
import type { ConsoleActor } from '../session/console-session';

/**
 * The targets of console_role.grant and console_role.revoke (docs/console.md, "The
 * confirmation exchange"), checked when a confirmation starts by the rules of the role change
 * itself (ConsoleMembers.plan), so the prompt never asks for a change that would be refused.
 */
@Injectable()
export class MemberConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly access: ConsoleAccess,
    private readonly members: ConsoleMembers,
  ) {}

  onModuleInit(): void {
    this.registry.register('console_role.grant', {
      check: (actor, target) => this.roleChange(actor, 'console_role.grant', target),
    });
    this.registry.register('console_role.revoke', {
      check: (actor, target) => this.roleChange(actor, 'console_role.revoke', target),
    });
  }

  private async roleChange(
    actor: ConsoleActor,
    action: 'console_role.grant' | 'console_role.revoke',
    target: ConfirmationTarget,
  ): Promise<void> {
    const actorRole = await this.access.require(actor, target.applicationId!, 'admin');
    const role = target.role!;
    if (!isMemberRole(role)) throw invalidBody(`role must be one of ${MEMBER_ROLES.join(', ')}`);
    const userId = parseUserId(target.targetUserId!);
    target.targetUserId = userId; // canonical decimal text, as the operation binds it
    const change: RoleChange =
      action === 'console_role.grant' ? { kind: 'grant', role } : { kind: 'revoke' };
    const planned = await this.members.plan(actorRole, target.applicationId!, userId, change);
    if (planned.role !== role) {
      throw new AppError(ErrorCode.Conflict, `This user's console role is ${planned.role}`);
    }
  }
}
