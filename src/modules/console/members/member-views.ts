import { ApiProperty } from '@nestjs/swagger';
import { CONSOLE_ROLES, type ConsoleRole } from '../roles/console-access.service';
import type { MemberRow } from '../roles/console-members.service';
import { AuditActorView } from '../audit/audit-views';

/** One person with console access to the application. */
export class MemberView {
  @ApiProperty({ description: 'Decimal text, as user ids in the application API' })
  userId!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: CONSOLE_ROLES, description: 'owner: applications.owner_id, not a grant' })
  role!: ConsoleRole;
  @ApiProperty({
    type: AuditActorView,
    nullable: true,
    description:
      'Who gave the current role; null for the owner, roles carried over from groups, or a deleted account',
  })
  grantedBy!: AuditActorView | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null for the owner',
  })
  grantedAt!: string | null;
}

export function toMemberView(row: MemberRow): MemberView {
  return {
    userId: row.userId,
    username: row.username,
    email: row.email,
    role: row.role,
    grantedBy: row.grantedBy,
    grantedAt: row.grantedAt === null ? null : row.grantedAt.toISOString(),
  };
}
