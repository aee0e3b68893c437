import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditLog } from '../../audit/audit-log.service';
import { ConsoleRoute } from '../session/console-session';
import { AuditPageView, toAuditEntryView } from './audit-views';
import { BadBody } from '../console.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { AuditLogQuery } from './console-audit.dto';

@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/audit-log')
export class ConsoleAuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @ApiOperation({ summary: "The application's audit log, newest first" })
  @ApplicationRole('admin')
  @BadBody(
    'invalid_query: before not a positive integer, limit not a positive integer, another parameter',
  )
  @ApiOkResponse({ type: AuditPageView })
  async listAuditLog(
    @ScopedApplication() { applicationId }: ScopedApplication,
    @Query() { before, limit }: AuditLogQuery,
  ): Promise<AuditPageView> {
    const page = await this.audit.page(applicationId, { before, limit });
    return { entries: page.entries.map(toAuditEntryView), next: page.next };
  }
}
