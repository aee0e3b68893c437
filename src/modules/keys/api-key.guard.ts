import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { RateLimiter } from '../rate-limit/rate-limiter.service';
import { ApiKeyContext, RequestWithApiKey } from './api-key-context';
import { ApiKeysService } from './api-keys.service';
import { PUBLIC_ROUTE } from '../../common/http/public.decorator';
import { SCOPE_DECLARATION, type ScopeDeclaration } from './auth.decorators';

const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * Global guard, deny by default: every route needs a valid application API key in the
 * Authorization header unless it is marked @Public(). Spec section 5.
 *
 * One ordered pipeline, because the rate-limit bucket is the authenticated application
 * (spec section 8): authenticate → charge the application → scopes. A failed authentication
 * is charged to the client address instead (429 once over its budget); a valid key is never
 * refused because of other callers' failures from the same address (docs/rate-limit.md).
 * A 403 insufficient_scope counts against the bucket and carries X-RateLimit-*.
 * A route without a scope declaration is refused outright (ScopeDeclarationCheck also stops
 * the service from booting with one), so no route accepts any key by omission.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const declaration = this.reflector.getAllAndOverride<ScopeDeclaration | undefined>(
      SCOPE_DECLARATION,
      targets,
    );
    if (!declaration) {
      throw new AppError(ErrorCode.InternalError, 'This route declares no scopes');
    }

    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithApiKey>();
    const response = http.getResponse<Response>();
    const apiKeyContext = await this.authenticate(request).catch(async (error: unknown) => {
      // Failures cannot be charged to an application: they count against the client address.
      if (error instanceof AppError && error.status === 401) {
        await this.limiter.chargeFailedAuthentication(request, response);
      }
      throw error;
    });
    request.apiKeyContext = apiKeyContext;
    await this.limiter.chargeApplication(apiKeyContext.application, response);

    if (declaration.kind === 'any-of') apiKeyContext.assertScopes(declaration.scopes);
    return true;
  }

  private async authenticate(request: RequestWithApiKey): Promise<ApiKeyContext> {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      throw new AppError(
        ErrorCode.MissingApiKey,
        'The Authorization header with an API key is missing',
      );
    }
    const presented = BEARER.exec(header.trim())?.[1];
    const resolved = presented ? await this.apiKeys.authenticate(presented) : undefined;
    if (!resolved) {
      // One body for malformed, unknown, revoked, deleted and expired keys.
      throw new AppError(ErrorCode.InvalidApiKey, 'The API key is invalid');
    }
    return new ApiKeyContext(resolved.application, resolved.apiKey);
  }
}
