import {
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import {
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IfPresent } from '../../../common/validation/dto-decorators';
import { positiveIntId } from '../../../common/validation/path-ids';
import { AuditLog } from '../../audit/audit-log.service';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/confirmations/confirmation-actions';
import { PasskeyConfirmations } from '../passkeys/confirmations/passkey-confirmations.service';
import { SessionAuth } from '../../../common/http/openapi-security';
import { RequestId } from '../../../common/http/request-id.decorator';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import type { UpstreamIdentity } from '../../upstreams/identities/upstream-identity.entity';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { PageError } from '../../pages/page-error';
import { setBrowserCookie } from '../../sessions/cookies';
import { UpstreamStartService } from '../../interaction/upstream-sign-in/upstream-start.service';
import {
  BIND_RETURN_PAGES,
  type BindReturnPage,
} from '../../interaction/upstream-sign-in/upstream-attempt';

/** One upstream account bound to the signed-in user, as the console's account page shows it. */
export class AccountUpstreamView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'The configured provider id' }) providerId!: string;
  @ApiProperty({ description: "The provider's user id" }) subject!: string;
  @ApiProperty({ type: 'string', nullable: true }) username!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastUsedAt!: string | null;
}

/** The query of POST …/bind: which account page the provider's callback returns to. */
export class BindStartQuery {
  @ApiPropertyOptional({
    enum: Object.keys(BIND_RETURN_PAGES),
    description:
      'console (default): back to /console/account; account: back to the account page (/account?done=upstream_connected)',
  })
  @IfPresent()
  @IsIn(Object.keys(BIND_RETURN_PAGES), { message: 'returnTo must be console or account' })
  returnTo?: BindReturnPage;
}

/** Where the browser goes to bind a provider (the console navigates there). */
export class BindStartView {
  @ApiProperty({ description: "The provider's authorization URL" }) location!: string;
}

/** The account page's bound upstream accounts (docs/upstreams.md). */
@ApiTags('console')
@SessionAuth()
@ConsoleRoute()
@Controller('api/console/account/upstreams')
export class AccountUpstreamsController {
  private readonly secure: boolean;

  constructor(
    private readonly identities: UpstreamIdentitiesService,
    private readonly starts: UpstreamStartService,
    private readonly confirmations: PasskeyConfirmations,
    private readonly audit: AuditLog,
    private readonly providers: UpstreamProvidersService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.secure = config.servesHttps;
  }

  @Get()
  @ApiOperation({ summary: "The signed-in user's bound upstream accounts, oldest first" })
  @ApiOkResponse({ type: [AccountUpstreamView] })
  async listAccountUpstreams(@ConsoleActor() actor: ConsoleActor): Promise<AccountUpstreamView[]> {
    return (await this.identities.listForUser(actor.user.id)).map(toView);
  }

  @Post(':providerId/bind')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start binding an upstream provider to the signed-in user',
    description:
      'A step-up first: a user with a passkey sends an upstream.bind confirmation for this providerId; a user without one needs a password (or upstream) sign-in within the last 5 minutes. Then sets the HttpOnly attempt cookie idsvc_upstream and answers the provider URL to navigate to; the provider returns to /api/auth/upstream/{providerId}/callback, which binds the account (refused when another user holds it), records upstream.bind in the audit log in the same transaction and redirects to /console/account (or /account with returnTo=account).',
  })
  @ApiHeader({
    name: 'X-Passkey-Confirmation',
    required: false,
    description:
      'Confirmation token for upstream.bind of this providerId (POST /api/console/confirmations); required when the user has a passkey',
  })
  @ApiOkResponse({ type: BindStartView })
  @ApiErrorResponse(400, 'invalid_query: returnTo is neither console nor account')
  @ApiErrorResponse(
    403,
    'passkey_confirmation_required (the user has a passkey) or recent_sign_in_required (no passkey, and no password sign-in within 5 minutes)',
  )
  @ApiErrorResponse(404, 'not_found: no such enabled provider')
  async startUpstreamBinding(
    @ConsoleActor() actor: ConsoleActor,
    @Param('providerId') providerId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
    @Query() query: BindStartQuery,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BindStartView> {
    // The provider first (404 spends nothing), then the step-up, then the attempt.
    if (!(await this.providers.find(providerId))) {
      throw new AppError(ErrorCode.NotFound, 'No such upstream provider');
    }
    await this.confirmations.stepUp(
      actor,
      'Connecting an upstream account',
      'upstream.bind',
      { providerId },
      confirmation,
    );
    const result = await this.starts
      .startBind(actor.user.id, providerId, query.returnTo, requestId)
      .catch((error: unknown) => {
        if (error instanceof PageError) {
          throw new AppError(ErrorCode.NotFound, 'No such upstream provider');
        }
        throw error;
      });
    for (const cookie of result.cookies ?? []) setBrowserCookie(res, cookie, this.secure);
    return { location: result.location ?? '' };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Unbind an upstream account',
    description:
      'Needs an upstream.unbind passkey confirmation for this binding (upstreamIdentityId). Refused (409 conflict) when it is the last way to sign in at the login page (no password and no other binding). Recorded as upstream.unbind in the audit log.',
  })
  @ApiHeader({
    name: 'X-Passkey-Confirmation',
    required: true,
    description: 'Confirmation token for upstream.unbind (POST /api/console/confirmations)',
  })
  @ApiNoContentResponse()
  @ApiErrorResponse(403, 'passkey_confirmation_required')
  @ApiErrorResponse(404, 'not_found: no such binding of this account')
  @ApiErrorResponse(409, 'conflict: the last way to sign in')
  async unbindAccountUpstream(
    @ConsoleActor() actor: ConsoleActor,
    @Param('id') id: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    const identityId = positiveIntId(id);
    const owned = async (): Promise<boolean> =>
      (await this.identities.listForUser(actor.user.id)).some(
        (identity) => identity.id === identityId,
      );
    if (identityId === null || !(await owned())) {
      throw new AppError(ErrorCode.NotFound, 'No such upstream binding');
    }
    // The token, the unbinding and its audit record commit together; a refusal spends nothing.
    await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'upstream.unbind',
        { upstreamIdentityId: identityId },
        confirmation,
        manager,
      );
      const outcome = await this.identities.unbind(actor.user.id, identityId, manager);
      if (outcome.kind === 'not_found') {
        throw new AppError(ErrorCode.NotFound, 'No such upstream binding');
      }
      if (outcome.kind === 'last_method') {
        throw new AppError(
          ErrorCode.Conflict,
          'This is the last way to sign in to this account: set a password or bind another provider first',
        );
      }
      await this.audit.record(
        {
          applicationId: null,
          actorUserId: actor.user.id,
          action: 'upstream.unbind',
          target: `upstream:${identityId}`,
          details: { provider: outcome.identity.providerId, subject: outcome.identity.subject },
          ip: actor.ip,
        },
        manager,
      );
    });
  }
}

function toView(identity: UpstreamIdentity): AccountUpstreamView {
  return {
    id: identity.id,
    providerId: identity.providerId,
    subject: identity.subject,
    username: identity.profile.username,
    createdAt: identity.createdAt.toISOString(),
    lastUsedAt: identity.lastUsedAt?.toISOString() ?? null,
  };
}
