import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE } from '../../common/http/public.decorator';
import { SCOPE_DECLARATION, type ScopeDeclaration } from './auth.decorators';

export interface DeclaredRoute {
  method: string;
  /** Express pattern, e.g. /api/v1/app/users/:userId. */
  path: string;
  /** Undefined for @Public() routes, which the API-key guard lets through. */
  scopes?: ScopeDeclaration;
  public: boolean;
}

const joinPaths = (...parts: (string | undefined)[]): string =>
  `/${parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Walks every controller route at boot and refuses to start when a route behind the API-key
 * guard has no scope declaration (@RequireScopes, @NoScopes or @ScopesCheckedByHandler), so a
 * forgotten decorator is a boot failure instead of a route that accepts any key.
 */
@Injectable()
export class ScopeDeclarationCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const undeclared = this.routes().filter((route) => !route.public && !route.scopes);
    if (undeclared.length > 0) {
      const names = undeclared.map((route) => `${route.method} ${route.path}`).join(', ');
      throw new Error(`Routes without a scope declaration (see auth.decorators.ts): ${names}`);
    }
  }

  /** Every route of every controller with what it declares. */
  routes(): DeclaredRoute[] {
    return this.discovery.getControllers().flatMap(({ metatype, instance }) => {
      if (!metatype || !instance) return [];
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const handler = prototype[name] as () => unknown;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) return [];
        const targets = [handler, metatype];
        return [
          {
            method: RequestMethod[method],
            path: joinPaths(
              Reflect.getMetadata(PATH_METADATA, metatype) as string | undefined,
              Reflect.getMetadata(PATH_METADATA, handler) as string | undefined,
            ),
            scopes: this.reflector.getAllAndOverride<ScopeDeclaration>(SCOPE_DECLARATION, targets),
            public: this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true,
          },
        ];
      });
    });
  }
}
