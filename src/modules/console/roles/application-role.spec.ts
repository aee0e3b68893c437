import { Controller, Get, type ExecutionContext, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { RouteMetadata } from '../../../common/http/route-metadata';
import { AppModule } from '../../../app.module';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { loadConfig } from '../../../config/app-config';
import type { ConsoleActor } from '../session/console-session';
import {
  APPLICATION_ROLE,
  APPLICATION_ROUTES,
  ApplicationRole,
  ApplicationRoleGuard,
} from './application-role';
import { toApplicationId, type ConsoleAccess, type ConsoleRole } from './console-access.service';

interface RouteRole {
  route: string;
  role: ConsoleRole | undefined;
}

const joinPaths = (...parts: (string | undefined)[]): string =>
  `/${parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`;

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD'];

/** Every route of these controllers with the role it declares, as `METHOD /path`. */
function routeRoles(controllers: Type[]): RouteRole[] {
  return controllers.flatMap((controller) => {
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') return [];
      if (!Reflect.hasMetadata(METHOD_METADATA, handler)) return [];
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const path = joinPaths(
        Reflect.getMetadata(PATH_METADATA, controller) as string,
        Reflect.getMetadata(PATH_METADATA, handler) as string,
      );
      const role = Reflect.getMetadata(APPLICATION_ROLE, handler) as ConsoleRole | undefined;
      return [{ route: `${method} ${path}`, role }];
    });
  });
}

const underApplication = ({ route }: RouteRole): boolean => {
  const path = route.split(' ')[1];
  return path === APPLICATION_ROUTES || path.startsWith(`${APPLICATION_ROUTES}/`);
};

/** The routes that break the rule: under an application without a role, or a role elsewhere. */
const misdeclared = (routes: RouteRole[]): string[] =>
  routes
    .filter((route) => underApplication(route) !== (route.role !== undefined))
    .map(({ route, role }) =>
      role ? `${route} (${role}, not under ${APPLICATION_ROUTES})` : route,
    );

/** The controllers of the whole service, read without starting it (Nest's preview mode). */
async function serviceControllers(): Promise<Type[]> {
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config), {
    preview: true,
    logger: false,
    bodyParser: false,
  });
  try {
    return [...app.get(ModulesContainer).values()].flatMap((module) =>
      [...module.controllers.values()].map(({ metatype }) => metatype as Type),
    );
  } finally {
    await app.close();
  }
}

@Controller('api/console/applications/:applicationId/things')
class ThingsController {
  @Get()
  @ApplicationRole('viewer')
  list(): string {
    return 'ok';
  }

  /** Forgot its role: no guard would check the application. */
  @Get(':thingId')
  get(): string {
    return 'ok';
  }
}

describe('@ApplicationRole declarations', () => {
  it('are on every route under /api/console/applications/:applicationId, and only there', async () => {
    const routes = routeRoles(await serviceControllers());
    const declared = routes.filter(underApplication);
    // The reader sees the routes: one of each role, so a blind reader fails here.
    expect(declared).toContainEqual({
      route: 'GET /api/console/applications/:applicationId',
      role: 'viewer',
    });
    expect(declared).toContainEqual({
      route: 'DELETE /api/console/applications/:applicationId',
      role: 'owner',
    });
    expect(declared).toContainEqual({
      route: 'POST /api/console/applications/:applicationId/keys',
      role: 'admin',
    });
    expect(misdeclared(routes)).toEqual([]);
  });

  it('names a route that forgot its role', () => {
    expect(misdeclared(routeRoles([ThingsController]))).toEqual([
      'GET /api/console/applications/:applicationId/things/:thingId',
    ]);
  });
});

describe(ApplicationRoleGuard.name, () => {
  const handler = (name: 'list' | 'get'): (() => unknown) =>
    Object.getOwnPropertyDescriptor(ThingsController.prototype, name)!.value as () => unknown;
  const actor = { user: { id: '7' } } as ConsoleActor;
  const contextOf = (handler: () => unknown, req: Record<string, unknown>): ExecutionContext =>
    ({
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => req }),
    }) as unknown as ExecutionContext;
  const guardWith = (require: ConsoleAccess['require']) =>
    new ApplicationRoleGuard(new RouteMetadata(), { require } as ConsoleAccess);

  it("hands the route the application and the actor's role in it", async () => {
    const require = jest.fn<ReturnType<ConsoleAccess['require']>, unknown[]>(() =>
      Promise.resolve('admin'),
    );
    const req = { consoleActor: actor, params: { applicationId: '12' } };
    await expect(guardWith(require).canActivate(contextOf(handler('list'), req))).resolves.toBe(
      true,
    );
    expect(require).toHaveBeenCalledWith(actor, '12', 'viewer');
    expect(req).toMatchObject({ scopedApplication: { applicationId: 12, role: 'admin' } });
  });

  it("answers ConsoleAccess's refusal (404 / 403) and hands nothing on", async () => {
    const refusal = new AppError(ErrorCode.NotFound, 'Application not found');
    const req = { consoleActor: actor, params: { applicationId: 'abc' } };
    const guard = guardWith(() => Promise.reject(refusal));
    await expect(guard.canActivate(contextOf(handler('list'), req))).rejects.toBe(refusal);
    expect(req).not.toHaveProperty('scopedApplication');
  });

  it('refuses a route without a declared role, a session or the path parameter', async () => {
    const guard = guardWith(() => Promise.resolve('owner'));
    const cases = [
      contextOf(handler('get'), {
        consoleActor: actor,
        params: { applicationId: '1' },
      }),
      contextOf(handler('list'), { params: { applicationId: '1' } }),
      contextOf(handler('list'), { consoleActor: actor, params: {} }),
    ];
    for (const context of cases) {
      await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'context_missing' });
    }
  });
});

describe(toApplicationId.name, () => {
  it('accepts the decimal ids of integer rows only', () => {
    expect(toApplicationId('1')).toBe(1);
    expect(toApplicationId('2147483647')).toBe(2147483647);
    for (const raw of ['0', '-1', '01', '1e3', '1.0', 'abc', '', '2147483648', '99999999999']) {
      expect([raw, toApplicationId(raw)]).toEqual([raw, null]);
    }
  });
});
