import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AtLeastOneField, IfPresent } from '../../common/validation/dto-decorators';
import type { ApiScope } from '../keys/scopes';
import { GROUP_CODES, type GroupCode, isGroupCode } from './groups';

/**
 * Body of PATCH /users/:userId (spec 4.1) and of the console's user PATCH: the fields that may
 * change, nothing else (unknown_field), at least one (empty_body), each of its JSON type
 * (invalid_body). The group's value is checked later, after the scopes (toUserChange), in the
 * order of docs/errors.md.
 */
@AtLeastOneField()
export class UserPatch {
  @ApiPropertyOptional({ enum: GROUP_CODES })
  @IfPresent()
  @IsString({ message: 'group must be a string' })
  group?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** A checked change of a user's relation. */
export interface UserChange {
  group?: GroupCode;
  enabled?: boolean;
}

/** docs/contract/api-keys.md#scopes: enabled needs user:write, group needs group:write; both when both are sent. */
export function requiredScopes(patch: UserPatch): ApiScope[][] {
  const requirements: ApiScope[][] = [];
  if (patch.enabled !== undefined) requirements.push(['user:write']);
  if (patch.group !== undefined) requirements.push(['group:write']);
  return requirements;
}

/** The group's value (400 invalid_group), checked after the scopes. */
export function toUserChange(patch: UserPatch): UserChange {
  if (patch.group !== undefined && !isGroupCode(patch.group)) {
    throw new AppError(ErrorCode.InvalidGroup, `group must be one of ${GROUP_CODES.join(', ')}`);
  }
  return { group: patch.group, enabled: patch.enabled };
}
