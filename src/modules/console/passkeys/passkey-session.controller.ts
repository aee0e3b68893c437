import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ApiErrorResponse, RETRY_AFTER } from '../../../common/errors/error-body.openapi';
import { RequestId } from '../../../common/http/request-id.decorator';
import { ConsoleRoute, ConsoleSessions, ConsoleSignIn } from '../session/console-session';
import { ConsoleSessionView } from '../session/session-view';
import { PasskeySignIn } from './passkey.dto';
import { PasskeyCeremonyStart } from '../../passkeys/passkey-view';
import { RateLimitGuard } from '../../rate-limit/rate-limit.guard';
import { QUOTA_WINDOW_MS } from '../../rate-limit/throttlers';
import {
  PasskeySignInService,
  SIGN_IN_STARTS_PER_ADDRESS,
} from '../../passkeys/sign-in/passkey-sign-in.service';
import { signInRefused } from '../../passkeys/passkeys.errors';

/** Signing in to the console with a passkey (a discoverable credential), instead of a password. */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/session/passkey')
export class PasskeySessionController {
  constructor(
    private readonly passkeys: PasskeySignInService,
    private readonly sessions: ConsoleSessions,
  ) {}

  @Post('options')
  @HttpCode(200)
  @ConsoleSignIn()
  // After the console guard's Origin and JSON checks: a request they refuse is not counted.
  @UseGuards(RateLimitGuard)
  @Throttle({ 'passkey-sign-in': { limit: SIGN_IN_STARTS_PER_ADDRESS, ttl: QUOTA_WINDOW_MS } })
  @ApiOperation({
    summary: 'Start a passkey sign-in',
    description:
      'Request options with no allowCredentials: the authenticator offers its passkeys. Each call stores a challenge, so calls are limited per client address (429 with Retry-After past it, docs/security.md).',
  })
  @ApiOkResponse({ type: PasskeyCeremonyStart })
  @ApiErrorResponse(
    429,
    'rate_limited: too many sign-in starts from this address (adds retry_after)',
    RETRY_AFTER,
  )
  startPasskeySignIn(): Promise<PasskeyCeremonyStart> {
    return this.passkeys.options();
  }

  @Post()
  @HttpCode(200)
  @ConsoleSignIn()
  @ApiOperation({
    summary: 'Sign in with a passkey assertion',
    description: 'Sets the session cookie; a failed verification is 401 invalid_credentials.',
  })
  @ApiOkResponse({ type: ConsoleSessionView })
  @ApiErrorResponse(
    400,
    'invalid_body: not a JSON object, or a field of the wrong type; unknown_field',
  )
  @ApiErrorResponse(401, 'invalid_credentials: the assertion does not verify')
  async signInWithPasskey(
    @Body() body: PasskeySignIn,
    @Req() req: Request,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionView> {
    const userId = await this.passkeys.verify(body.ceremonyId, body.response, requestId);
    if (!userId) throw signInRefused();
    return this.sessions.signIn(req, res, userId, 'passkey');
  }
}
