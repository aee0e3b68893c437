import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { IfPresent, PositiveIntParam } from '../../../common/validation/dto-decorators';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** Query of GET /api/console/applications/{id}/audit-log: 400 invalid_query otherwise. */
export class AuditLogQuery {
  @ApiPropertyOptional({ description: 'The `next` of the previous page' })
  @IfPresent()
  @Matches(/^[1-9][0-9]{0,17}$/, {
    message: 'before must be the positive integer of a previous page',
  })
  before?: string;

  @PositiveIntParam({
    max: MAX_LIMIT,
    clamp: true,
    default: DEFAULT_LIMIT,
    description: `Entries per page; above ${MAX_LIMIT} is clamped to ${MAX_LIMIT}`,
  })
  limit: number = DEFAULT_LIMIT;
}
