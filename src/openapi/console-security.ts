import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { CONSOLE_SIGN_IN, ConsoleSessionGuard } from '../modules/console/session/console-session';

/** The methods on which ConsoleSessionGuard checks Origin, JSON bodies and the CSRF token. */
const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string; content?: unknown }>;
};

/**
 * What ConsoleSessionGuard does to a route, written into its operation so the document follows
 * the guard that runs and the console controllers need no decorator for it: the session cookie
 * (not on sign-in routes) with, on state-changing requests, the X-CSRF-Token header; and the
 * guard's refusals (401 unauthenticated; 403 csrf_failed and 415 on state-changing requests).
 * A route that states its own security keeps it (the CSRF header added where the guard wants
 * it); a status it already describes gets the guard's codes appended to its description.
 */
export function addConsoleGuardDocs(app: INestApplication, document: OpenAPIObject): void {
  const routes = consoleRoutes(app);
  for (const item of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(item) as [string, unknown][]) {
      if (!isOperation(value)) continue;
      const route = routes.get(value.operationId ?? '');
      if (route === undefined) continue;
      const changing = STATE_CHANGING.has(method);
      if (route.session) {
        const declared = value.security ?? [{ session: [] }];
        value.security = changing
          ? declared.map((requirement) =>
              'session' in requirement ? { ...requirement, csrf: [] } : requirement,
            )
          : declared;
        refusal(value, 401, 'unauthenticated: no valid session');
      }
      if (changing) {
        const csrf = route.session
          ? 'Origin not this service, or X-CSRF-Token missing or wrong'
          : 'Origin not this service';
        refusal(value, 403, `csrf_failed: ${csrf}`);
        refusal(value, 415, 'unsupported_media_type: a body that is not JSON');
      }
    }
  }
}

function refusal(operation: Operation, status: number, text: string): void {
  const existing = operation.responses[status];
  // A new responses object: the one swagger built may be shared with the decorators' metadata.
  operation.responses = {
    ...operation.responses,
    [status]: existing
      ? {
          ...existing,
          description: existing.description ? `${existing.description}; ${text}` : text,
        }
      : {
          description: text,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
  };
}

/** Operation id (`Controller_method`, @nestjs/swagger's default) → does the guard want a session. */
function consoleRoutes(app: INestApplication): Map<string, { session: boolean }> {
  const routes = new Map<string, { session: boolean }>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        if (!hasConsoleGuard(metatype) && !hasConsoleGuard(handler)) continue;
        // As the guard reads it: the handler's value, else the controller's.
        const signIn = (Reflect.getMetadata(CONSOLE_SIGN_IN, handler) ??
          Reflect.getMetadata(CONSOLE_SIGN_IN, metatype)) as boolean | undefined;
        routes.set(`${metatype.name}_${name}`, { session: !signIn });
      }
    }
  }
  return routes;
}

function hasConsoleGuard(target: object): boolean {
  const guards = (Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as unknown[];
  return guards.some(
    (guard) => guard === ConsoleSessionGuard || guard instanceof ConsoleSessionGuard,
  );
}

function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null && 'responses' in value;
}
