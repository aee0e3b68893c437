import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { ApiErrorResponse, RETRY_AFTER } from '../../../common/errors/error-body.openapi';
import { ErrorCode } from '../../../common/errors/error-code';
import { LOGIN_REFUSALS, LoginService } from '../../sessions/login.service';
import {
  ConsoleActor,
  ConsoleRoute,
  ConsoleSessions,
  ConsoleSignIn,
  toSessionView,
} from './console-session';
import { PasswordSignIn } from './session.dto';
import { ConsoleSessionView } from './session-view';

/** Signing in to and out of the console (the same session as the OAuth login pages). */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly login: LoginService,
  ) {}

  @Post()
  @HttpCode(200)
  @ConsoleSignIn()
  @ApiOperation({
    summary: 'Sign in with a username or email and a password',
    description:
      'Sets the session cookie. Failed attempts are throttled like the OAuth login page (429 with Retry-After); when too many password checks wait already, 503 with Retry-After at once.',
  })
  @ApiOkResponse({ type: ConsoleSessionView })
  @ApiErrorResponse(
    400,
    'invalid_body: login (not empty) and password must be strings; unknown_field',
  )
  @ApiErrorResponse(401, 'invalid_credentials: unknown account or wrong password (one answer)')
  @ApiErrorResponse(
    429,
    'rate_limited: too many failed sign-ins from this address (adds retry_after)',
    RETRY_AFTER,
  )
  @ApiErrorResponse(
    503,
    'service_unavailable: too many password checks waiting (adds retry_after)',
    RETRY_AFTER,
  )
  async signIn(
    @Body() { login, password }: PasswordSignIn,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionView> {
    const outcome = await this.login.authenticate(login, password, req.ip ?? '');
    switch (outcome.kind) {
      case 'throttled':
        throw new AppError(ErrorCode.RateLimited, LOGIN_REFUSALS.throttled[1], {
          retry_after: outcome.retryAfterSeconds,
        });
      case 'busy':
        throw new AppError(ErrorCode.ServiceUnavailable, LOGIN_REFUSALS.busy[1], {
          retry_after: outcome.retryAfterSeconds,
        });
      case 'failed':
        throw new AppError(ErrorCode.InvalidCredentials, 'The username or password is incorrect');
      case 'ok':
        return this.sessions.signIn(req, res, outcome.user.id, 'password');
    }
  }

  @Get()
  @ApiOperation({ summary: 'The signed-in account and the CSRF token of this session' })
  @ApiOkResponse({ type: ConsoleSessionView })
  getSession(@ConsoleActor() actor: ConsoleActor): ConsoleSessionView {
    return toSessionView(actor);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out (ends the session for the OAuth pages too)' })
  @ApiNoContentResponse()
  signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    return this.sessions.signOut(req, res);
  }
}
