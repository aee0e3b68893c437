import { ERROR_STATUS, ErrorCode } from './error-code';

/**
 * A failure the client can act on: a machine code, a human message and the extra body fields
 * the contract names for some codes (docs/contract/README.md#errors). The status comes from the code (ERROR_STATUS).
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}
