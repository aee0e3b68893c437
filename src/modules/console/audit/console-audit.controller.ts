import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  invalidQuery,
  positiveIntParam,
  singleValue,
  type RawQuery,
} from '../../../common/http/query-params';
import { AuditLog } from '../../audit/audit-log.service';
import { ConsoleRoute } from '../session/console-session';
import { AuditPageView, toAuditEntryView } from './audit-views';
import { BadBody } from '../console.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/audit-log')
export class ConsoleAuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @ApiOperation({ summary: "The application's audit log, newest first" })
  @ApiQuery({ name: 'before', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
    description: `Entries per page; above ${MAX_LIMIT} is clamped to ${MAX_LIMIT}`,
  })
  @ApplicationRole('admin')
  @BadBody(
    'invalid_query: before not a positive integer, limit not a positive integer, another parameter',
  )
  @ApiOkResponse({ type: AuditPageView })
  async listAuditLog(
    @ScopedApplication() { applicationId }: ScopedApplication,
    @Query() query: RawQuery,
  ): Promise<AuditPageView> {
    const page = await this.audit.page(applicationId, parseAuditQuery(query));
    return { entries: page.entries.map(toAuditEntryView), next: page.next };
  }
}

function parseAuditQuery(query: RawQuery): { before?: string; limit: number } {
  const unknown = Object.keys(query).filter((name) => name !== 'before' && name !== 'limit');
  if (unknown.length > 0) throw invalidQuery(`Unknown parameters: ${unknown.join(', ')}`);
  const before = singleValue(query, 'before');
  if (before !== undefined && !/^[1-9][0-9]{0,17}$/.test(before)) {
    throw invalidQuery('before must be the positive integer of a previous page');
  }
  return { before, limit: positiveIntParam(query, 'limit', DEFAULT_LIMIT, MAX_LIMIT) };
}
