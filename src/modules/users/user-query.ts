import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BooleanParam, IfPresent, PositiveIntParam } from '../../common/validation/dto-decorators';
import { decimalId, MAX_BIGINT_ID } from '../../common/validation/path-ids';
import { GROUP_CODES, type GroupCode } from './groups';

/** docs/contract/users.md#get-users: pageSize default 20, maximum 100 (larger values are clamped, docs/users-api.md). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Pages beyond this are refused rather than clamped: a clamped page would be a different page. */
export const MAX_PAGE = 1_000_000_000;
/** Longer than any username (64) or email (254) could contain. */
export const MAX_KEYWORD_LENGTH = 254;

/**
 * The query of GET /users (spec 4.1), also the console's users list: malformed, repeated or
 * unknown parameters are 400 invalid_query (docs/errors.md).
 */
export class UserListQuery {
  @PositiveIntParam({ max: MAX_PAGE, default: 1 })
  page: number = 1;

  @PositiveIntParam({
    max: MAX_PAGE_SIZE,
    clamp: true,
    default: DEFAULT_PAGE_SIZE,
    description: `Rows per page; values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}`,
  })
  pageSize: number = DEFAULT_PAGE_SIZE;

  /** Lower-cased; matched as a literal substring. Empty means no keyword. */
  @ApiPropertyOptional({
    maxLength: MAX_KEYWORD_LENGTH,
    description: 'Case-insensitive substring of the username or email',
  })
  @Transform(({ value }: { value: unknown }) =>
    value === '' ? undefined : typeof value === 'string' ? value.toLowerCase() : value,
  )
  @IfPresent()
  @IsString()
  @MaxLength(MAX_KEYWORD_LENGTH, {
    message: `keyword must be at most ${MAX_KEYWORD_LENGTH} characters`,
  })
  keyword?: string;

  @ApiPropertyOptional({ enum: GROUP_CODES, description: 'Exact group' })
  @IfPresent()
  @IsIn(GROUP_CODES, { message: 'group must be one of the codes of GET /groups' })
  group?: GroupCode;

  @BooleanParam()
  enabled?: boolean;
}

/**
 * `:userId` is decimal digits within bigint range (docs/contract/README.md#errors,
 * invalid_user_id); `0` and leading zeros included, as the contract words it (`0` is no user: 404).
 */
export function parseUserId(raw: string): string {
  const id = decimalId(raw, MAX_BIGINT_ID, { anyDigits: true });
  if (id === null) {
    throw new AppError(
      ErrorCode.InvalidUserId,
      'userId must be a decimal integer within bigint range',
    );
  }
  return id.toString();
}

/** Escapes LIKE metacharacters so `%`, `_` and `\` in a keyword match literally. */
export function likeSubstring(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The checked `:userId` of the route (400 invalid_user_id). A parameter decorator, not a pipe:
 * it runs before every pipe of the handler, so a bad id is answered before a bad body, in the
 * order of docs/errors.md.
 */
export const PathUserId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const raw = ctx.switchToHttp().getRequest<Request>().params.userId;
  return parseUserId(typeof raw === 'string' ? raw : '');
});
