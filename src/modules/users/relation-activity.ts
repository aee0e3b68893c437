import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_GROUP } from './groups';

/** Counts over an application's relations (docs/contract/stats.md#fields). */
export interface RelationTotals {
  totalUsers: number;
  totalAuths: number;
  /** Relations authorized at or after `since`. */
  active: number;
  /** Relations first authorized at or after `since`. */
  new: number;
}

/**
 * The writes and aggregates of `app_users` that other modules need: the OAuth grant records an
 * authorization here, the stats read their totals here.
 */
@Injectable()
export class RelationActivity {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A completed authorization: creates the relation in the default group on first
   * authorization, otherwise stores the (already merged) granted scope and counts it.
   */
  async recordAuthorization(
    manager: EntityManager,
    applicationId: number,
    userId: string,
    grantedScope: string,
    now: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO app_users (application_id, user_id, "group", enabled, granted_scope, auth_count, first_auth_at, last_auth_at, created_at)
       VALUES ($1, $2, $3, true, $4, 1, $5, $5, $5)
       ON CONFLICT (application_id, user_id) DO UPDATE
       SET granted_scope = $4, auth_count = app_users.auth_count + 1, last_auth_at = $5,
           first_auth_at = COALESCE(app_users.first_auth_at, $5)`,
      [applicationId, userId, DEFAULT_GROUP, grantedScope, now],
    );
  }

  async totals(applicationId: number, since: Date): Promise<RelationTotals> {
    const [row] = await this.dataSource.query<
      { total_users: string; total_auths: string; active: string; new_users: string }[]
    >(
      `SELECT count(*) AS total_users, coalesce(sum(auth_count), 0) AS total_auths,
              count(*) FILTER (WHERE last_auth_at >= $2) AS active,
              count(*) FILTER (WHERE first_auth_at >= $2) AS new_users
       FROM app_users WHERE application_id = $1`,
      [applicationId, since],
    );
    return {
      totalUsers: Number(row.total_users),
      totalAuths: Number(row.total_auths),
      active: Number(row.active),
      new: Number(row.new_users),
    };
  }
}
