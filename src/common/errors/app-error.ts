import { ErrorCode } from './error-code';

/**
 * A failure the client can act on: an HTTP status, a machine code and a human message,
 * plus the extra body fields the spec names for some codes (spec section 7).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}
