import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ScopedApplication } from '../roles/application-role';
import type { BackchannelLogoutView } from './backchannel-logout-view';

/** The latest logouts shown in the Settings tab. */
const LIST_LIMIT = 50;

interface LogoutRow {
  id: string;
  created_at: Date;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/**
 * The back-channel logouts of an application as the console shows them (docs/oidc.md,
 * "Back-channel logout"): how each went; the table holds no token, and the user and the session
 * are not shown.
 */
@Injectable()
export class ConsoleBackchannelLogouts {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async latest({ applicationId }: ScopedApplication): Promise<BackchannelLogoutView[]> {
    const rows = await this.dataSource.query<LogoutRow[]>(
      `SELECT id, created_at, status, attempts, last_status_code, last_error, last_attempt_at,
              next_attempt_at, delivered_at
       FROM backchannel_logouts WHERE application_id = $1 ORDER BY id DESC LIMIT $2`,
      [applicationId, LIST_LIMIT],
    );
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at.toISOString(),
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.last_status_code,
      lastError: row.last_error,
      lastAttemptAt: iso(row.last_attempt_at),
      // Only a pending logout has a next attempt.
      nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
      deliveredAt: iso(row.delivered_at),
    }));
  }
}
