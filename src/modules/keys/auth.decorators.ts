import { SetMetadata } from '@nestjs/common';
import type { ApiScope } from './scopes';

export const SCOPE_DECLARATION = 'auth:scopes';

/**
 * What a route behind the API-key guard says about scopes (docs/contract/api-keys.md#scopes). Declaring is
 * mandatory: the guard refuses a route without a declaration and the service refuses to boot
 * with one (ScopeDeclarationCheck), so a new route cannot accept any key by omission.
 */
export type ScopeDeclaration =
  /** The guard requires any one of `scopes` before the handler runs. */
  | { kind: 'any-of'; scopes: readonly ApiScope[] }
  /** Any valid key; no scope needed (GET /me, GET /groups). */
  | { kind: 'none' }
  /** The scopes depend on the request (PATCH /users/:userId): the handler checks among `scopes`. */
  | { kind: 'by-request'; scopes: readonly ApiScope[] };

/** The scope a route needs (any one of those listed). */
export const RequireScopes = (
  ...anyOf: [ApiScope, ...ApiScope[]]
): MethodDecorator & ClassDecorator =>
  SetMetadata(SCOPE_DECLARATION, { kind: 'any-of', scopes: anyOf } satisfies ScopeDeclaration);

/** The route needs a valid key and no scope. */
export const NoScopes = (): MethodDecorator & ClassDecorator =>
  SetMetadata(SCOPE_DECLARATION, { kind: 'none' } satisfies ScopeDeclaration);

/** The handler checks the scopes itself because they depend on the request; lists those it uses. */
export const ScopesCheckedByHandler = (
  ...possible: [ApiScope, ...ApiScope[]]
): MethodDecorator & ClassDecorator =>
  SetMetadata(SCOPE_DECLARATION, {
    kind: 'by-request',
    scopes: possible,
  } satisfies ScopeDeclaration);
