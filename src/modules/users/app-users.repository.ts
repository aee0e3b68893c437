import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { likeSubstring, UserListQuery } from './user-query';

/** One user as an application sees it: the account joined with its relation to the application. */
export interface AppUserRow {
  user_id: string;
  username: string;
  email: string;
  nickname: string;
  avatar: string;
  email_verified: boolean;
  group: string;
  enabled: boolean;
  auth_count: number;
  first_auth_at: Date | null;
  last_auth_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

const WITH_USERS = 'app_users au JOIN users u ON u.id = au.user_id';

/** Between username and email in `app_users.search` (migration AppUserSearch); in neither. */
const SEARCH_SEPARATOR = '\n';

const COLUMNS = `u.id::text AS user_id, u.username, u.email, u.nickname, u.avatar, u.email_verified,
  au."group", au.enabled, au.auth_count, au.first_auth_at, au.last_auth_at, u.last_login_at, u.created_at`;

/**
 * Queries of the application's users; every one is scoped by application id.
 * The list order is user id ascending (unique, so total): see docs/users-api.md.
 */
@Injectable()
export class AppUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page and the size of the filtered set. */
  async list(
    applicationId: number,
    q: UserListQuery,
  ): Promise<{ rows: AppUserRow[]; total: number }> {
    const { where, params } = filters(applicationId, q);
    const offset = (q.page - 1) * q.pageSize;
    if (q.keyword === undefined) {
      // The page comes from the narrow relation index (index-only even for deep offsets);
      // only its rows are joined to users.
      const [rows, total] = await Promise.all([
        this.dataSource.query<AppUserRow[]>(
          pageSql(`SELECT au.user_id, NULL AS total`, where, params.length),
          [...params, q.pageSize, offset],
        ),
        this.count(where, params, 'app_users au'),
      ]);
      return { rows, total };
    }
    // Keyword: one scan of the application's trigram index yields both the page and the count
    // (window function); only a keyword with a newline needs the users join (see filters()).
    const from = q.keyword.includes(SEARCH_SEPARATOR) ? WITH_USERS : 'app_users au';
    const rows = await this.dataSource.query<(AppUserRow & { total: string })[]>(
      keywordPageSql(where, params.length, from),
      [...params, q.pageSize, offset],
    );
    if (rows.length > 0) return { rows, total: Number(rows[0].total) };
    return { rows, total: offset === 0 ? 0 : await this.count(where, params, from) };
  }

  private async count(where: string, params: unknown[], from: string): Promise<number> {
    const [row] = await this.dataSource.query<{ total: string }[]>(
      `SELECT count(*) AS total FROM ${from} WHERE ${where}`,
      params,
    );
    return Number(row.total);
  }

  async findOne(
    applicationId: number,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AppUserRow | undefined> {
    const rows = await manager.query<AppUserRow[]>(
      `SELECT ${COLUMNS} FROM app_users au JOIN users u ON u.id = au.user_id
       WHERE au.application_id = $1 AND au.user_id = $2`,
      [applicationId, userId],
    );
    return rows[0];
  }

  /** Locks the relation row for the rest of the transaction; false when there is none. */
  async lockRelation(
    manager: EntityManager,
    applicationId: number,
    userId: string,
  ): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      'SELECT 1 FROM app_users WHERE application_id = $1 AND user_id = $2 FOR UPDATE',
      [applicationId, userId],
    );
    return rows.length > 0;
  }
}

/** The page's rows in user id order; `select` picks user_id (and optionally a total) per match. */
function pageSql(select: string, where: string, paramCount: number, from = 'app_users au'): string {
  const limit = paramCount + 1;
  return `SELECT ${COLUMNS}, page.total FROM (
      ${select} FROM ${from} WHERE ${where}
      ORDER BY au.user_id LIMIT $${limit} OFFSET $${limit + 1}
    ) page
    JOIN app_users au ON au.application_id = $1 AND au.user_id = page.user_id
    JOIN users u ON u.id = page.user_id
    ORDER BY page.user_id`;
}

/**
 * Keyword page and total. The matches are materialized first: otherwise the planner may walk
 * the application's whole (application_id, user_id) index to avoid a sort and test LIKE on
 * every relation (80 ms for 100,000), when the trigram bitmap scan touches only the matches.
 */
function keywordPageSql(where: string, paramCount: number, from: string): string {
  const limit = paramCount + 1;
  return `WITH matches AS MATERIALIZED (SELECT au.user_id FROM ${from} WHERE ${where})
    SELECT ${COLUMNS}, page.total FROM (
      SELECT user_id, count(*) OVER () AS total FROM matches
      ORDER BY user_id LIMIT $${limit} OFFSET $${limit + 1}
    ) page
    JOIN app_users au ON au.application_id = $1 AND au.user_id = page.user_id
    JOIN users u ON u.id = page.user_id
    ORDER BY page.user_id`;
}

function filters(applicationId: number, q: UserListQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [applicationId];
  const clauses = ['au.application_id = $1'];
  if (q.group !== undefined) {
    params.push(q.group);
    clauses.push(`au."group" = $${params.length}`);
  }
  if (q.enabled !== undefined) {
    params.push(q.enabled);
    clauses.push(`au.enabled = $${params.length}`);
  }
  if (q.keyword !== undefined) {
    params.push(likeSubstring(q.keyword));
    const p = `$${params.length}`;
    // `search` is lower(username) || '\n' || lower(email): a keyword without a newline is a
    // substring of it exactly when it is one of the username or the email. Backed by the GIN
    // index (application_id, search gin_trgm_ops). A keyword with a newline (which no valid
    // username or email contains) is still answered exactly, from the users columns.
    clauses.push(
      q.keyword.includes(SEARCH_SEPARATOR)
        ? `(lower(u.username) LIKE ${p} OR lower(u.email) LIKE ${p})`
        : `au.search LIKE ${p}`,
    );
  }
  return { where: clauses.join(' AND '), params };
}
