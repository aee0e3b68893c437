import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RouteMetadata } from '../../common/http/route-metadata';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ApiKeyContext, RequestWithApiKey } from './api-key-context';
import { ApiKeysService } from './api-keys.service';
import { PUBLIC_ROUTE } from '../../common/http/public.decorator';
import { SCOPE_DECLARATION, type ScopeDeclaration } from './auth.decorators';

const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * Global guard, deny by default: every route needs a valid application API key in the
 * Authorization header unless it is marked @Public(). docs/contract/api-keys.md#authentication.
 *
 * First step of one ordered pipeline of global guards (api-key-guard.module.ts), because the
 * rate-limit bucket is the authenticated application (docs/contract/README.md#rate-limits): authenticate (this) →
 * charge the application (ApiRateLimitGuard, @nestjs/throttler) → refuse (ApiKeyScopeGuard:
 * 401 or 403 insufficient_scope). A failed authentication is recorded on the request instead of
 * thrown, so that the rate limit charges it to the client address (429 once over its budget)
 * before the scope guard throws the 401; a valid key is never refused because of other callers'
 * failures from the same address (docs/rate-limit.md). A 403 insufficient_scope counts against
 * the bucket and carries X-RateLimit-*.
 * A route without a scope declaration is refused outright (ScopeDeclarationCheck also stops
 * the service from booting with one), so no route accepts any key by omission.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: RouteMetadata,
    private readonly apiKeys: ApiKeysService,
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

    const request = context.switchToHttp().getRequest<RequestWithApiKey>();
    try {
      request.apiKeyContext = await this.authenticate(request);
    } catch (error) {
      // Failures cannot be charged to an application: they count against the client address.
      if (!(error instanceof AppError && error.status === 401)) throw error;
      request.apiKeyFailure = error;
    }
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
