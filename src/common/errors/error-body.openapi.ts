import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { ErrorCode } from './error-code';

/**
 * The `{error, message}` body of the application API and the console (docs/contract/README.md#errors,
 * docs/errors.md), for the OpenAPI document; AllExceptionsFilter renders it. The extra fields
 * appear only with the codes named in their descriptions.
 */
export class ErrorBody {
  @ApiProperty({ enum: Object.values(ErrorCode), description: 'Machine code (docs/errors.md)' })
  error!: string;

  @ApiProperty({ description: 'Human-readable text' }) message!: string;

  @ApiPropertyOptional({ type: [String], description: 'insufficient_scope: any one of these' })
  required_any_of?: string[];

  @ApiPropertyOptional({ type: [String], description: 'insufficient_scope: the key has these' })
  granted_scopes?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    description: 'rate_limited, service_unavailable: seconds to wait (also the Retry-After header)',
  })
  retry_after?: number;

  @ApiPropertyOptional({ type: [String], description: 'unknown_field: the offending names' })
  fields?: string[];
}

const header = (description: string): { description: string; schema: { type: 'string' } } => ({
  description,
  schema: { type: 'string' },
});

/**
 * An `{error, message}` response; `codes` names the codes it may carry there. Extra headers
 * go with 429 and 503.
 */
export const ApiErrorResponse = (
  status: number,
  codes: string,
  headers: Record<string, { description: string; schema: { type: 'string' } }> = {},
): MethodDecorator & ClassDecorator =>
  ApiResponse({ status, description: codes, type: ErrorBody, headers });

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('Requests per window for the application'),
  'X-RateLimit-Remaining': header('Requests left in the window'),
  'X-RateLimit-Reset': header('Unix epoch seconds at which the window resets (docs/rate-limit.md)'),
};

export const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before retrying') };
