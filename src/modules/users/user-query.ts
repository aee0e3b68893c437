import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import {
  invalidQuery,
  positiveIntParam,
  RawQuery,
  singleValue,
} from '../../common/http/query-params';
import { GroupCode, isGroupCode } from './groups';

/** Spec section 8: pageSize default 20, maximum 100 (larger values are clamped, docs/users-api.md). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Pages beyond this are refused rather than clamped: a clamped page would be a different page. */
export const MAX_PAGE = 1_000_000_000;
/** Longer than any username (64) or email (254) could contain. */
export const MAX_KEYWORD_LENGTH = 254;

export interface UserListQuery {
  page: number;
  pageSize: number;
  /** Lower-cased; matched as a literal substring. */
  keyword?: string;
  group?: GroupCode;
  enabled?: boolean;
}

const KNOWN = new Set(['page', 'pageSize', 'keyword', 'group', 'enabled']);

/** Parses GET /users query parameters (spec 4.1); malformed values are 400 invalid_query. */
export function parseUserListQuery(query: RawQuery): UserListQuery {
  const unknown = Object.keys(query).filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) throw invalidQuery(`Unknown query parameter: ${unknown.join(', ')}`);
  const rawPage = singleValue(query, 'page');
  if (rawPage !== undefined && (!/^\d{1,10}$/.test(rawPage) || Number(rawPage) < 1)) {
    throw invalidQuery('page must be a positive integer');
  }
  const page = rawPage === undefined ? 1 : Number(rawPage);
  if (page > MAX_PAGE) throw invalidQuery(`page must be at most ${MAX_PAGE}`);
  const result: UserListQuery = {
    page,
    pageSize: positiveIntParam(query, 'pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
  const keyword = singleValue(query, 'keyword');
  if (keyword !== undefined && keyword !== '') {
    if (keyword.length > MAX_KEYWORD_LENGTH) {
      throw invalidQuery(`keyword must be at most ${MAX_KEYWORD_LENGTH} characters`);
    }
    result.keyword = keyword.toLowerCase();
  }
  const group = singleValue(query, 'group');
  if (group !== undefined) {
    if (!isGroupCode(group)) throw invalidQuery('group must be one of the codes of GET /groups');
    result.group = group;
  }
  const enabled = singleValue(query, 'enabled');
  if (enabled !== undefined) {
    if (enabled !== 'true' && enabled !== 'false') {
      throw invalidQuery('enabled must be true or false');
    }
    result.enabled = enabled === 'true';
  }
  return result;
}

const MAX_BIGINT = 9223372036854775807n;

/** `:userId` is decimal digits within bigint range (spec section 7, invalid_user_id). */
export function parseUserId(raw: string): string {
  if (!/^\d{1,19}$/.test(raw) || BigInt(raw) > MAX_BIGINT) {
    throw new AppError(
      ErrorCode.InvalidUserId,
      'userId must be a decimal integer within bigint range',
    );
  }
  return BigInt(raw).toString();
}

/** Escapes LIKE metacharacters so `%`, `_` and `\` in a keyword match literally. */
export function likeSubstring(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
