import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { RouteMetadata } from '../../../common/http/route-metadata';
import type { Request, Response } from 'express';
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../../common/crypto/constant-time';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { isJsonContentType } from '../../../common/http/json-body';
import { AppConfig } from '../../../config/app-config';
import { Public } from '../../../common/http/public.decorator';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { browserCookieFlags, cookieName, setBrowserCookie } from '../../sessions/cookies';
import { SessionService, type CurrentSession } from '../../sessions/session.service';
import type { User } from '../../users/user.entity';
import type { ConsoleSessionView } from './session-view';

/** Who is acting on a console request: set by ConsoleSessionGuard, read with @ConsoleActor(). */
export interface ConsoleActor {
  user: User;
  /** The session row's id (the SHA-256 of the cookie), never the cookie itself. */
  sessionId: string;
  authMethod: SessionAuthMethod;
  signedInAt: Date;
  ip: string;
  /** The CSRF token of this session (what GET /api/console/session hands out). */
  csrfToken: string;
}

export const CSRF_HEADER = 'x-csrf-token';
/** Metadata set by @ConsoleSignIn(); the OpenAPI builder reads it too (src/openapi). */
export const CONSOLE_SIGN_IN = 'console:sign-in';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request that passed ConsoleSessionGuard carries its actor. */
export type ConsoleRequest = Request & { consoleActor?: ConsoleActor };

/**
 * Console sessions are the OAuth pages' sessions (cookie idsvc_session, `__Host-idsvc_session`
 * behind https; table oauth_sessions):
 * signing in at one signs in at the other. This adds what a JSON API in the browser needs:
 * the CSRF token bound to the session, the Origin check and the cookie on sign-in.
 */
@Injectable()
export class ConsoleSessions {
  private readonly secure: boolean;
  private readonly origin: string;

  constructor(
    private readonly sessions: SessionService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {
    this.secure = config.servesHttps;
    this.origin = config.publicOrigin;
  }

  /**
   * Starts a session for `userId` (recorded as a sign-in from the request's address and
   * User-Agent), sets its cookie and answers the session body.
   */
  async signIn(
    req: Request,
    res: Response,
    userId: string,
    method: SessionAuthMethod,
  ): Promise<ConsoleSessionView> {
    const created = await this.sessions.create(userId, method, {
      ip: clientAddress(req),
      userAgent: req.get('user-agent') ?? '',
      // The session this browser held ends with the sign-in that replaces its cookie.
      sessionCookie: sessionCookieOf(req, this.secure),
    });
    setBrowserCookie(
      res,
      { name: 'session', value: created.cookieValue, maxAge: created.maxAgeSeconds },
      this.secure,
    );
    const current = await this.sessions.current(created.cookieValue);
    if (!current) throw new AppError(ErrorCode.InternalError, 'The new session was not found');
    return toSessionView(this.toActor(current, created.cookieValue, ''));
  }

  /** Ends the request's session (the row is deleted, so the cookie is dead everywhere). */
  async signOut(req: Request, res: Response): Promise<void> {
    await this.sessions.destroy(sessionCookieOf(req, this.secure));
    res.clearCookie(cookieName('session', this.secure), browserCookieFlags(this.secure));
  }

  /** The actor of the request's live session, or null. */
  async actorOf(req: Request): Promise<ConsoleActor | null> {
    const cookie = sessionCookieOf(req, this.secure);
    const current = await this.sessions.current(cookie);
    if (!current || cookie === undefined) return null;
    return this.toActor(current, cookie, clientAddress(req));
  }

  /** HMAC-SHA256(SESSION_SECRET, "console:" + cookie), base64url: bound to the session. */
  csrfTokenFor(cookieValue: string): string {
    return createHmac('sha256', this.config.sessionSecret)
      .update(`console:${cookieValue}`)
      .digest('base64url');
  }

  /** A present Origin header must be this service's origin (a cross-site fetch or form). */
  checkOrigin(req: Request): void {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.origin) {
      throw new AppError(ErrorCode.CsrfFailed, 'Cross-origin requests are refused');
    }
  }

  checkCsrfToken(req: Request, actor: ConsoleActor): void {
    const sent = req.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, actor.csrfToken)) {
      throw new AppError(ErrorCode.CsrfFailed, 'The X-CSRF-Token header is missing or wrong');
    }
  }

  private toActor(current: CurrentSession, cookie: string, ip: string): ConsoleActor {
    return {
      user: current.user,
      sessionId: current.session.id,
      authMethod: current.session.authMethod,
      signedInAt: current.session.createdAt,
      ip,
      csrfToken: this.csrfTokenFor(cookie),
    };
  }
}

export function toSessionView(actor: ConsoleActor): ConsoleSessionView {
  const { user } = actor;
  return {
    user: { id: user.id, username: user.username, email: user.email, nickname: user.nickname },
    authMethod: actor.authMethod,
    signedInAt: actor.signedInAt.toISOString(),
    csrfToken: actor.csrfToken,
  };
}

/** The client address as Express sees it (TRUST_PROXY_HOPS). */
function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? '';
}

/** The session cookie's value, read from the header (the console does not need cookie-parser). */
export function sessionCookieOf(req: Request, secure: boolean): string | undefined {
  const name = cookieName('session', secure);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/**
 * Every console route: no-store; on state-changing requests the Origin check and JSON bodies
 * only (a cross-site form cannot send JSON); then the session (401 unauthenticated) and, on
 * state-changing requests, the CSRF token (403 csrf_failed). Sign-in routes stop before the
 * session: there is none yet.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: RouteMetadata,
    private readonly sessions: ConsoleSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const changing = STATE_CHANGING.has(req.method);
    if (changing) {
      this.sessions.checkOrigin(req);
      checkJsonBody(req);
    }
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(CONSOLE_SIGN_IN, targets)) return true;

    const actor = await this.sessions.actorOf(req);
    if (!actor) throw new AppError(ErrorCode.Unauthenticated, 'Sign in to the console first');
    if (changing) this.sessions.checkCsrfToken(req, actor);
    req.consoleActor = actor;
    return true;
  }
}

/** Request bodies of the console are JSON; any other non-empty body is refused (415). */
function checkJsonBody(req: Request): void {
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !isJsonContentType(req.headers['content-type'])) {
    throw new AppError(ErrorCode.UnsupportedMediaType, 'Console request bodies are JSON only');
  }
}

/**
 * A console route (class or method): opted out of the API-key guard, behind the session guard.
 * The only way in to /api/console besides @ConsoleSignIn().
 */
export const ConsoleRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(Public(), UseGuards(ConsoleSessionGuard));

/** On a @ConsoleRoute: the route starts a session, so it needs none (Origin and JSON checks stay). */
export const ConsoleSignIn = (): MethodDecorator => SetMetadata(CONSOLE_SIGN_IN, true);

/** The ConsoleActor of a @ConsoleRoute request. */
export const ConsoleActor = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const actor = ctx.switchToHttp().getRequest<ConsoleRequest>().consoleActor;
  if (!actor) throw new AppError(ErrorCode.ContextMissing, 'Console session context is missing');
  return actor;
});
