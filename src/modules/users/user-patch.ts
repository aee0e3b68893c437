import { ApiPropertyOptional } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { isJsonContentType } from '../../common/http/json-body';
import type { ApiScope } from '../keys/scopes';
import { GROUP_CODES, type GroupCode, isGroupCode } from './groups';

/**
 * The fields PATCH /users/:userId may change (spec 4.1); nothing else is assignable. Also the
 * body's OpenAPI schema; the body itself is checked by hand below so the spec's error codes win
 * (docs/errors.md).
 */
export class UserPatch {
  @ApiPropertyOptional({ enum: GROUP_CODES }) group?: GroupCode;
  @ApiPropertyOptional() enabled?: boolean;
}

const UPDATABLE: readonly string[] = ['group', 'enabled'] satisfies (keyof UserPatch)[];

const invalidBody = (message: string): AppError => new AppError(ErrorCode.InvalidBody, message);

/**
 * Checks the body's shape: a JSON object holding only `group` (string) and/or `enabled`
 * (boolean). The group's value is checked later, after the scopes (see requiredScopes).
 */
export function parsePatchShape(
  body: unknown,
  contentType: string | undefined,
): { group?: string; enabled?: boolean } {
  if (!isJsonContentType(contentType))
    throw invalidBody('The body must be JSON (application/json)');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidBody('The body must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !UPDATABLE.includes(key));
  if (unknown.length > 0) {
    throw new AppError(
      ErrorCode.UnknownField,
      `Only group and enabled can be changed; not: ${unknown.join(', ')}`,
      { fields: unknown },
    );
  }
  const { group, enabled } = record;
  if (group !== undefined && typeof group !== 'string') throw invalidBody('group must be a string');
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    throw invalidBody('enabled must be a boolean');
  }
  if (group === undefined && enabled === undefined) {
    throw new AppError(ErrorCode.EmptyBody, 'Send group and/or enabled');
  }
  return { group, enabled };
}

/** Spec section 5: enabled needs user:write, group needs group:write; both when both are sent. */
export function requiredScopes(shape: { group?: string; enabled?: boolean }): ApiScope[][] {
  const requirements: ApiScope[][] = [];
  if (shape.enabled !== undefined) requirements.push(['user:write']);
  if (shape.group !== undefined) requirements.push(['group:write']);
  return requirements;
}

export function toUserPatch(shape: { group?: string; enabled?: boolean }): UserPatch {
  if (shape.group !== undefined && !isGroupCode(shape.group)) {
    throw new AppError(ErrorCode.InvalidGroup, `group must be one of ${GROUP_CODES.join(', ')}`);
  }
  return { group: shape.group, enabled: shape.enabled };
}
