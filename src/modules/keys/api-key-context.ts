import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ApiApplication } from '../applications/api-application-sql';
import type { PresentedKey } from './key-lookup';
import { firstUnmetRequirement, type ApiScope } from './scopes';

/** What the API-key guard establishes for a request: the calling key and its application. */
export class ApiKeyContext {
  constructor(
    readonly application: ApiApplication,
    readonly apiKey: PresentedKey,
  ) {}

  get applicationId(): number {
    return this.application.id;
  }

  /** Throws 403 insufficient_scope for the first requirement the key does not meet. */
  assertScopes(...requirements: (readonly ApiScope[])[]): void {
    const unmet = firstUnmetRequirement(this.apiKey.scopes, requirements);
    if (unmet) {
      throw new AppError(
        ErrorCode.InsufficientScope,
        'The API key lacks a scope this request needs',
        {
          required_any_of: [...unmet],
          granted_scopes: [...this.apiKey.scopes],
        },
      );
    }
  }
}

/**
 * A request behind the API-key guard: the key and application it authenticated, or the 401 its
 * authentication failed with, which the scope guard throws once the rate limit has counted it.
 */
export type RequestWithApiKey = Request & {
  apiKeyContext?: ApiKeyContext;
  apiKeyFailure?: AppError;
};

/** Injects the ApiKeyContext; its absence on a guarded route is a wiring fault (context_missing). */
export const CurrentApiKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ApiKeyContext => {
    const context = ctx.switchToHttp().getRequest<RequestWithApiKey>().apiKeyContext;
    if (!context) {
      throw new AppError(ErrorCode.ContextMissing, 'Request context is missing');
    }
    return context;
  },
);
