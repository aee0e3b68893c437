import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleRoute } from '../session/console-session';
import { BackchannelLogoutView } from './backchannel-logout-view';

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
 * The back-channel logouts of an application (docs/oidc.md, "Back-channel logout"): admins see
 * how each went; the table holds no token, and the user and session are not shown.
 */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/backchannel-logouts')
export class ConsoleBackchannelLogoutsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({
    summary: 'The latest 50 back-channel logouts of the application, newest first',
    description:
      'Status, attempts, the last answer or error and the next attempt of each; never the logout token, which is signed for each attempt and not kept.',
  })
  @ApplicationRole('admin')
  @ApiOkResponse({ type: [BackchannelLogoutView] })
  async listBackchannelLogouts(
    @ScopedApplication() { applicationId }: ScopedApplication,
  ): Promise<BackchannelLogoutView[]> {
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
