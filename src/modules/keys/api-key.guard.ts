import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ApiKeyContext, RequestWithApiKey } from './api-key-context';
import { ApiKeysService } from './api-keys.service';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from './auth.decorators';
import type { ApiScope } from './scopes';

const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * Global guard, deny by default: every route needs a valid application API key in the
 * Authorization header unless it is marked @Public(). Spec section 5.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<RequestWithApiKey>();
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      throw new AppError(
        ErrorCode.MissingApiKey,
        401,
        'The Authorization header with an API key is missing',
      );
    }
    const presented = BEARER.exec(header.trim())?.[1];
    const resolved = presented ? await this.apiKeys.authenticate(presented) : undefined;
    if (!resolved) {
      // One body for malformed, unknown, revoked, deleted and expired keys.
      throw new AppError(ErrorCode.InvalidApiKey, 401, 'The API key is invalid');
    }
    const apiKeyContext = new ApiKeyContext(resolved.application, resolved.apiKey);
    request.apiKeyContext = apiKeyContext;

    const anyOf = this.reflector.getAllAndOverride<ApiScope[] | undefined>(
      REQUIRED_SCOPES,
      targets,
    );
    if (anyOf && anyOf.length > 0) apiKeyContext.assertScopes(anyOf);
    return true;
  }
}
