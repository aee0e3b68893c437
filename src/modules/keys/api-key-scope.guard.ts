import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RouteMetadata } from '../../common/http/route-metadata';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { PUBLIC_ROUTE } from '../../common/http/public.decorator';
import type { RequestWithApiKey } from './api-key-context';
import { SCOPE_DECLARATION, type ScopeDeclaration } from './auth.decorators';

/**
 * Last step of the API-key pipeline (ApiKeyGuard → ApiRateLimitGuard → this): once the rate
 * limit has counted the request, refuses what the key does not allow: the 401 of a failed
 * authentication, then 403 insufficient_scope for a route that requires scopes (docs/contract/api-keys.md#scopes).
 */
@Injectable()
export class ApiKeyScopeGuard implements CanActivate {
  constructor(private readonly reflector: RouteMetadata) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<RequestWithApiKey>();
    if (request.apiKeyFailure) throw request.apiKeyFailure;
    const apiKeyContext = request.apiKeyContext;
    if (!apiKeyContext) throw new AppError(ErrorCode.ContextMissing, 'Request context is missing');
    const declaration = this.reflector.getAllAndOverride<ScopeDeclaration | undefined>(
      SCOPE_DECLARATION,
      targets,
    );
    if (declaration?.kind === 'any-of') apiKeyContext.assertScopes(declaration.scopes);
    return true;
  }
}
