import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const TIMESTAMP = { format: 'date-time', nullable: true, type: String } as const;

/** Spec section 2, User view. */
export class UserViewDto {
  @ApiProperty({ description: 'Decimal text of the numeric user id' }) userId!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'May be empty' }) nickname!: string;
  @ApiProperty({ description: 'URL' }) avatar!: string;
  @ApiProperty() emailVerified!: boolean;
  @ApiProperty({ enum: ['admin', 'viewer', 't0', 't1', 't2', 't3', 't4', 't5'] }) group!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() authCount!: number;
  @ApiProperty(TIMESTAMP) firstAuthAt!: string | null;
  @ApiProperty(TIMESTAMP) lastAuthAt!: string | null;
  @ApiProperty(TIMESTAMP) lastLoginAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class UserPageDto {
  @ApiProperty({ type: [UserViewDto] }) items!: UserViewDto[];
  @ApiProperty({ description: 'Size of the filtered set' }) total!: number;
  @ApiProperty() page!: number;
  @ApiProperty({ description: 'The page size used (after clamping to 100)' }) pageSize!: number;
}

/** PATCH /users/:userId body; validated by hand so the spec's error codes win (docs/errors.md). */
export class UserPatchDto {
  @ApiPropertyOptional({ enum: ['admin', 'viewer', 't0', 't1', 't2', 't3', 't4', 't5'] })
  group?: string;
  @ApiPropertyOptional() enabled?: boolean;
}

/** Spec section 2, Revocation result. */
export class RevocationResultDto {
  @ApiProperty() revoked!: boolean;
  @ApiProperty() revokedTokens!: number;
}
