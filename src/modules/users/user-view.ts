import { rfc3339 } from '../../common/http/timestamps';
import type { AppUserRow } from './app-users.repository';

/** Spec section 2, User view. */
export interface UserView {
  userId: string;
  username: string;
  email: string;
  nickname: string;
  avatar: string;
  emailVerified: boolean;
  group: string;
  enabled: boolean;
  authCount: number;
  firstAuthAt: string | null;
  lastAuthAt: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface UserPage {
  items: UserView[];
  total: number;
  page: number;
  pageSize: number;
}

/** Spec section 2, Revocation result. */
export interface RevocationResult {
  revoked: boolean;
  revokedTokens: number;
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
