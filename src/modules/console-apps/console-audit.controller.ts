import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiQueryOf } from '../../common/validation/openapi';
import { validateRequest } from '../../common/validation/request-validation';
import { AuditLog } from '../audit/audit-log.service';
import { ConsoleActor, ConsoleRoute } from '../console/console-session';
import { AuditPageView, toAuditEntryView } from './audit-views';
import { ApplicationRole, BadBody } from './console-apps.openapi';
import { ConsoleScope } from './console-scope';
import { AuditLogQuery } from './console-audit.dto';

@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/audit-log')
export class ConsoleAuditController {
  constructor(
    private readonly scope: ConsoleScope,
    private readonly audit: AuditLog,
  ) {}

  @Get()
  @ApiOperation({ summary: "The application's audit log, newest first (admin)" })
  @ApiQueryOf(AuditLogQuery)
  @ApplicationRole('admin')
  @BadBody(
    'invalid_query: before not a positive integer, limit not a positive integer, another parameter',
  )
  @ApiOkResponse({ type: AuditPageView })
  async listAuditLog(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Query() query: unknown,
  ): Promise<AuditPageView> {
    // The role first (docs/console.md, "Order of checks"), then the query.
    const { applicationId } = await this.scope.of(actor, id, 'admin');
    const { before, limit } = validateRequest(AuditLogQuery, query, 'query');
    const page = await this.audit.page(applicationId, { before, limit });
    return { entries: page.entries.map(toAuditEntryView), next: page.next };
  }
}
