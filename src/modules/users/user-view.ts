import { ApiProperty } from '@nestjs/swagger';
import { rfc3339 } from '../../common/http/timestamps';
import type { AppUserRow } from './app-users.repository';
import { GROUP_CODES } from './groups';

/**
 * The response shapes of /api/v1/app/users, defined once: these classes are both the services'
 * return types and, through their decorators, the OpenAPI schemas.
 */
const TIMESTAMP = { format: 'date-time', nullable: true, type: String } as const;

/** docs/contract/users.md#user-view. */
export class UserView {
  @ApiProperty({ description: 'Decimal text of the numeric user id' }) userId!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'May be empty' }) nickname!: string;
  @ApiProperty({ description: 'URL' }) avatar!: string;
  @ApiProperty() emailVerified!: boolean;
  @ApiProperty({ enum: GROUP_CODES }) group!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() authCount!: number;
  @ApiProperty(TIMESTAMP) firstAuthAt!: string | null;
  @ApiProperty(TIMESTAMP) lastAuthAt!: string | null;
  @ApiProperty(TIMESTAMP) lastLoginAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class UserPage {
  @ApiProperty({ type: [UserView] }) items!: UserView[];
  @ApiProperty({ description: 'Size of the filtered set' }) total!: number;
  @ApiProperty() page!: number;
  @ApiProperty({ description: 'The page size used (after clamping to 100)' }) pageSize!: number;
}

/** docs/contract/users.md#revocation-result. */
export class RevocationResult {
  @ApiProperty() revoked!: boolean;
  @ApiProperty() revokedTokens!: number;
}

export function toUserView(row: AppUserRow): UserView {
  return {
    userId: row.user_id,
    username: row.username,
    email: row.email,
    nickname: row.nickname,
    avatar: row.avatar,
    emailVerified: row.email_verified,
    group: row.group,
    enabled: row.enabled,
    authCount: row.auth_count,
    firstAuthAt: rfc3339(row.first_auth_at),
    lastAuthAt: rfc3339(row.last_auth_at),
    lastLoginAt: rfc3339(row.last_login_at),
    createdAt: row.created_at.toISOString(),
  };
}
