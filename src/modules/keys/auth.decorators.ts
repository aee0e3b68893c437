import { SetMetadata } from '@nestjs/common';
import type { ApiScope } from './scopes';

export const PUBLIC_ROUTE = 'auth:public';
export const REQUIRED_SCOPES = 'auth:scopes';

/**
 * The only opt-out of the global API-key guard: for routes with their own authentication
 * (OAuth endpoints, login pages) or none (health).
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The scope a route needs (any one of those listed); spec section 5. */
export const RequireScopes = (...anyOf: ApiScope[]): MethodDecorator & ClassDecorator =>
  SetMetadata(REQUIRED_SCOPES, anyOf);
