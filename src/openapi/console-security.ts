import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ConsoleSessionGuard } from '../modules/console/console-session';

// Set by @ConsoleSignIn() (src/modules/console/console-session.ts) on the routes that start a
// session; test/e2e/openapi.e2e-spec.ts fails if sign-in starts to require one in the document.
const CONSOLE_SIGN_IN = 'console:sign-in';

/**
 * The operation ids (`Controller_method`, @nestjs/swagger's default) of the routes that
 * ConsoleSessionGuard lets through only with a session: read from the guards that run, so the
 * document cannot say otherwise, and the console controllers need no decorator of their own.
 */
export function sessionRouteIds(app: INestApplication): Set<string> {
  const ids = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const guarded = hasConsoleGuard(metatype) || hasConsoleGuard(handler);
        // As the guard reads it: the handler's value, else the controller's.
        const signIn = (Reflect.getMetadata(CONSOLE_SIGN_IN, handler) ??
          Reflect.getMetadata(CONSOLE_SIGN_IN, metatype)) as boolean | undefined;
        if (guarded && !signIn) {
          ids.add(`${metatype.name}_${name}`);
        }
      }
    }
  }
  return ids;
}

function hasConsoleGuard(target: object): boolean {
  const guards = (Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as unknown[];
  return guards.some(
    (guard) => guard === ConsoleSessionGuard || guard instanceof ConsoleSessionGuard,
  );
}
