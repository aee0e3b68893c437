import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { APPLICATION_ID_PARAM, APPLICATION_ROLE } from '../modules/console/roles/application-role';
import type { ConsoleRole } from '../modules/console/roles/console-access.service';
import { CONSOLE_SIGN_IN, ConsoleSessionGuard } from '../modules/console/session/console-session';

/** The methods on which ConsoleSessionGuard checks Origin, JSON bodies and the CSRF token. */
const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string; content?: unknown }>;
  'x-console-role'?: ConsoleRole;
};

interface ConsoleRouteDocs {
  /** Does ConsoleSessionGuard want a session (every route but sign-in). */
  session: boolean;
  /** The role of @ApplicationRole, which ApplicationRoleGuard enforces. */
  role?: ConsoleRole;
}

/**
 * What the console's guards do to a route, written into its operation so the document follows
 * the guards that run and the console controllers need no decorator for it:
 * - ConsoleSessionGuard: the session cookie (not on sign-in routes) with, on state-changing
 *   requests, the X-CSRF-Token header; and its refusals (401 unauthenticated; 403 csrf_failed
 *   and 415 on state-changing requests). A route that states its own security keeps it (the
 *   CSRF header added where the guard wants it).
 * - ApplicationRoleGuard, from the route's @ApplicationRole: the `applicationId` path parameter
 *   it reads, the role as `x-console-role`, 404 not_found (no role in the application) and,
 *   above viewer, 403 forbidden. The role comes first in a status's description: it is
 *   checked before anything the route itself describes.
 * A status the route already describes gets the guards' codes added to its description.
 */
export function addConsoleGuardDocs(app: INestApplication, document: OpenAPIObject): void {
  const routes = consoleRoutes(app);
  for (const item of Object.values(document.paths) as Record<string, unknown>[]) {
    for (const [method, value] of Object.entries(item)) {
      if (!isOperation(value)) continue;
      const route = routes.get(value.operationId ?? '');
      if (route === undefined) continue;
      const operation = route.role ? withApplicationRole(value, route.role) : value;
      item[method] = operation;
      const changing = STATE_CHANGING.has(method);
      if (route.session) {
        const declared = operation.security ?? [{ session: [] }];
        operation.security = changing
          ? declared.map((requirement) =>
              'session' in requirement ? { ...requirement, csrf: [] } : requirement,
            )
          : declared;
        refusal(operation, 401, 'unauthenticated: no valid session');
      }
      if (changing) {
        const csrf = route.session
          ? 'Origin not this service, or X-CSRF-Token missing or wrong'
          : 'Origin not this service';
        refusal(operation, 403, `csrf_failed: ${csrf}`);
        refusal(operation, 415, 'unsupported_media_type: a body that is not JSON');
      }
    }
  }
}

/**
 * The operation of an @ApplicationRole route. The handler takes the checked application
 * (@ScopedApplication), not the path parameter, so swagger does not list it: it goes first,
 * as the route's path names it first. The keys stay in swagger's (lexicographic) order.
 */
function withApplicationRole(operation: Operation, role: ConsoleRole): Operation {
  const others = (operation.parameters ?? []).filter(
    (parameter) => !(parameter.in === 'path' && parameter.name === APPLICATION_ID_PARAM),
  );
  const parameters = [
    { name: APPLICATION_ID_PARAM, required: true, in: 'path', schema: { type: 'string' } },
    ...others,
  ];
  const keys = Object.keys({ ...operation, parameters }).sort();
  const sorted = Object.fromEntries(
    keys.map((key) => [key, key === 'parameters' ? parameters : operation[key as keyof Operation]]),
  ) as Operation;
  const roleRefusal = (status: number, text: string): void =>
    // Written first and shaped as ApiErrorResponse writes a response (with its headers).
    refusal(sorted, status, text, { place: 'first', headers: {} });
  roleRefusal(404, 'not_found: no such application, or no console role in it (the same answer)');
  if (role !== 'viewer')
    roleRefusal(403, `forbidden: this needs the ${role} role in the application`);
  sorted['x-console-role'] = role;
  return sorted;
}

function refusal(
  operation: Operation,
  status: number,
  text: string,
  { place, headers }: { place: 'first' | 'last'; headers?: object } = { place: 'last' },
): void {
  const existing = operation.responses[status];
  const joined = (description: string): string =>
    place === 'first' ? `${text}; ${description}` : `${description}; ${text}`;
  // A new responses object: the one swagger built may be shared with the decorators' metadata.
  operation.responses = {
    ...operation.responses,
    [status]: existing
      ? { ...existing, description: existing.description ? joined(existing.description) : text }
      : {
          description: text,
          ...(headers ? { headers } : {}),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
  };
}

/** Operation id (`Controller_method`, @nestjs/swagger's default) → what the guards do there. */
function consoleRoutes(app: INestApplication): Map<string, ConsoleRouteDocs> {
  const routes = new Map<string, ConsoleRouteDocs>();
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
        const role = Reflect.getMetadata(APPLICATION_ROLE, handler) as ConsoleRole | undefined;
        routes.set(`${metatype.name}_${name}`, { session: !signIn, role });
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
