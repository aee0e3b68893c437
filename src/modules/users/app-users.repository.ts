import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  bitmapPageSql,
  COLUMNS,
  countSql,
  KeywordClause,
  pageSql,
  walkSql,
} from './app-users-list-sql';
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

/** Relations the dense-keyword walk reads at most before the bitmap answers the page instead. */
const WALK_BUDGET = 2000;
/** Fewer matches than this: their top-N sort costs about what the walk could save. */
const WALK_MIN_TOTAL = 1000;
/** Deepest row (offset + pageSize) the walk is tried for; deeper pages come from the bitmap. */
const WALK_MAX_ROWS = 200;

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
    const f = filters(applicationId, q);
    const offset = (q.page - 1) * q.pageSize;
    const pageParams = [...f.params, q.pageSize, offset];
    const limit = f.params.length + 1;
    if (f.keyword === undefined) {
      // The page comes from the narrow relation index; only its rows are joined to users.
      const [rows, total] = await Promise.all([
        this.dataSource.query<AppUserRow[]>(pageSql(f.base, limit), pageParams),
        this.count(f.base, f.params, 'app_users au'),
      ]);
      return { rows, total };
    }
    const where = `${f.base} AND ${f.keyword('au')}`;
    // Only a keyword with a newline needs the users join (see filters()).
    const from = q.keyword?.includes(SEARCH_SEPARATOR) ? WITH_USERS : 'app_users au';
    if (from === WITH_USERS || offset + q.pageSize > WALK_MAX_ROWS) {
      // One scan of the trigram index yields both the page and the count (window).
      const rows = await this.dataSource.query<(AppUserRow & { total: string })[]>(
        bitmapPageSql(where, from, limit, true),
        pageParams,
      );
      if (rows.length > 0) return { rows, total: Number(rows[0].total) };
      return { rows, total: offset === 0 ? 0 : await this.count(where, f.params, from) };
    }
    // Near pages: the exact count from the trigram bitmap alone, then the page. When the count
    // says the keyword is dense, a bounded walk in user id order fills the page after a few
    // entries; it is kept only when it is full (it may end before the page does).
    const total = await this.count(where, f.params, from);
    const expected = Math.max(0, Math.min(q.pageSize, total - offset));
    if (expected === 0) return { rows: [], total };
    if (total >= WALK_MIN_TOTAL) {
      const walked = await this.dataSource.query<AppUserRow[]>(
        walkSql(f.base, f.keyword, limit, WALK_BUDGET),
        pageParams,
      );
      if (walked.length === expected) return { rows: walked, total };
    }
    const rows = await this.dataSource.query<AppUserRow[]>(
      bitmapPageSql(where, from, limit, false),
      pageParams,
    );
    return { rows, total };
  }

  private async count(where: string, params: unknown[], from: string): Promise<number> {
    const [row] = await this.dataSource.query<{ total: string }[]>(countSql(where, from), params);
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

  /** The application's users among `userIds` (ids it has no relation with are left out). */
  async findMany(applicationId: number, userIds: string[]): Promise<AppUserRow[]> {
    if (userIds.length === 0) return [];
    return this.dataSource.query<AppUserRow[]>(
      `SELECT ${COLUMNS} FROM app_users au JOIN users u ON u.id = au.user_id
       WHERE au.application_id = $1 AND au.user_id = ANY($2::bigint[])`,
      [applicationId, userIds],
    );
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

interface Filters {
  /** Application, group and enabled conditions on `au`. */
  base: string;
  params: unknown[];
  keyword?: KeywordClause;
}

function filters(applicationId: number, q: UserListQuery): Filters {
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
  const base = clauses.join(' AND ');
  if (q.keyword === undefined) return { base, params };
  params.push(likeSubstring(q.keyword));
  const p = `$${params.length}`;
  // `search` is lower(username) || '\n' || lower(email): a keyword without a newline is a
  // substring of it exactly when it is one of the username or the email. Backed by the GIN
  // index (application_id, search gin_trgm_ops). A keyword with a newline (which no valid
  // username or email contains) is still answered exactly, from the users columns.
  const keyword: KeywordClause = q.keyword.includes(SEARCH_SEPARATOR)
    ? () => `(lower(u.username) LIKE ${p} OR lower(u.email) LIKE ${p})`
    : (alias) => `${alias}.search LIKE ${p}`;
  return { base, params, keyword };
}
