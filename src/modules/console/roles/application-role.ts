import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { RouteMetadata } from '../../../common/http/route-metadata';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import type { ConsoleRequest } from '../session/console-session';
import { ConsoleAccess, toApplicationId, type ConsoleRole } from './console-access.service';

/** Metadata set by @ApplicationRole(); the OpenAPI builder reads it too (src/openapi). */
export const APPLICATION_ROLE = 'console:application-role';
/** The path parameter naming the application a role-declared route acts on. */
export const APPLICATION_ID_PARAM = 'applicationId';
/** Every route under this path acts on one application and declares the role it needs. */
export const APPLICATION_ROUTES = `/api/console/applications/:${APPLICATION_ID_PARAM}`;

/**
 * The application a route acts on, checked by ApplicationRoleGuard: the actor holds `role` in
 * it, at least the role the route declares. Services take this, never a raw path id.
 */
export interface ScopedApplication {
  applicationId: number;
  role: ConsoleRole;
}

type ScopedRequest = ConsoleRequest & { scopedApplication?: ScopedApplication };

/**
 * The one role check of the per-application console routes (docs/console.md, "Roles"): the
 * actor's role in the `:applicationId` of the path, at least the route's @ApplicationRole — no
 * role, no such application or an id that cannot be one → 404 not_found; a lower role → 403
 * forbidden. Runs after ConsoleSessionGuard (the controller's guard, so first), and before the
 * body, path ids and confirmation are read.
 */
@Injectable()
export class ApplicationRoleGuard implements CanActivate {
  constructor(
    private readonly reflector: RouteMetadata,
    private readonly access: ConsoleAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const needed = this.reflector.get<ConsoleRole | undefined>(
      APPLICATION_ROLE,
      context.getHandler(),
    );
    const req = context.switchToHttp().getRequest<ScopedRequest>();
    const raw = req.params[APPLICATION_ID_PARAM];
    // A programming error (no @ConsoleRoute, no :applicationId): refuse rather than let it pass.
    if (!needed || !req.consoleActor || typeof raw !== 'string') {
      throw new AppError(ErrorCode.ContextMissing, 'Console application context is missing');
    }
    const role = await this.access.require(req.consoleActor, raw, needed);
    // require() answers with a role only for an id toApplicationId accepts.
    req.scopedApplication = { applicationId: toApplicationId(raw)!, role };
    return true;
  }
}

/**
 * On a route of a @ConsoleRoute() controller under /api/console/applications/:applicationId:
 * the role it needs in that application, enforced by ApplicationRoleGuard and stated in the
 * OpenAPI document (its 403/404 answers and `x-console-role`, src/openapi/console-security.ts).
 */
export const ApplicationRole = (needed: ConsoleRole): MethodDecorator =>
  applyDecorators(SetMetadata(APPLICATION_ROLE, needed), UseGuards(ApplicationRoleGuard));

/** The ScopedApplication of an @ApplicationRole route. */
export const ScopedApplication = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const scoped = ctx.switchToHttp().getRequest<ScopedRequest>().scopedApplication;
  if (!scoped) {
    throw new AppError(ErrorCode.ContextMissing, 'Console application context is missing');
  }
  return scoped;
});
