import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { MEMBER_ROLES, type MemberRole } from '../roles/console-member.entity';

/** Body of PUT /api/console/applications/{id}/members/{userId}. */
export class MemberRoleBody {
  @ApiProperty({
    enum: MEMBER_ROLES,
    description: 'admin: the owner only; viewer: the owner or an admin',
  })
  @IsIn(MEMBER_ROLES, { message: `role is required: ${MEMBER_ROLES.join(' or ')}` })
  role!: MemberRole;
}
