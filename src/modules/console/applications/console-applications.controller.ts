import { Body, Controller, Delete, Get, Headers, HttpCode, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/confirmations/confirmation-actions';
import { ApplicationSettingsBody, NewApplicationBody } from './application.dto';
import {
  ApplicationDetail,
  ApplicationSummary,
  ApplicationWithSecret,
  ClientSecretView,
} from './application-views';
import { ConsoleApplications } from './console-applications.service';
import { BadBody, Conflict } from '../console.openapi';
import { PasskeyConfirmed } from '../passkeys/confirmations/passkey-confirmed.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';

@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications')
export class ConsoleApplicationsController {
  constructor(private readonly applications: ConsoleApplications) {}

  @Get()
  @ApiOperation({ summary: 'The applications where I have a console role, with that role' })
  @ApiOkResponse({ type: [ApplicationSummary] })
  listApplications(@ConsoleActor() actor: ConsoleActor): Promise<ApplicationSummary[]> {
    return this.applications.list(actor);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an application; I become its owner (group admin)',
    description: 'The client secret of a `secret` client is in this answer only.',
  })
  @BadBody(
    'invalid_body, unknown_field: the body; invalid_request: a name, URL or redirect URI the rules refuse',
  )
  @ApiCreatedResponse({ type: ApplicationWithSecret })
  createApplication(
    @ConsoleActor() actor: ConsoleActor,
    @Body() body: NewApplicationBody,
  ): Promise<ApplicationWithSecret> {
    return this.applications.create(actor, body);
  }

  @Get(':applicationId')
  @ApiOperation({ summary: 'One application (a viewer gets it without client and settings)' })
  @ApplicationRole('viewer')
  @ApiOkResponse({ type: ApplicationDetail })
  getApplication(@ScopedApplication() app: ScopedApplication): Promise<ApplicationDetail> {
    return this.applications.get(app);
  }

  @Patch(':applicationId')
  @ApiOperation({
    summary: 'Change settings (a client_settings.update confirmation to change the OAuth client)',
    description:
      'Changing redirectUris, postLogoutRedirectUris, clientAuthMethod, jwks or jwksUri needs the X-Passkey-Confirmation of a client_settings.update confirmation for this application and exactly the values of those fields this body sends; other fields need none. Switching clientAuthMethod to `secret` issues a client secret, returned in this answer only; switching to `none` or `private_key_jwt` drops it (`private_key_jwt` needs jwks or jwksUri in the same body); switching away from `private_key_jwt` drops the keys.',
  })
  @ApiHeader({
    name: 'X-Passkey-Confirmation',
    required: false,
    description:
      'client_settings.update token bound to this application and the client settings sent; needed only when they change',
  })
  @ApplicationRole('admin')
  @BadBody(
    'invalid_body, unknown_field, empty_body: the body; invalid_request: a value the rules refuse',
  )
  @ApiErrorResponse(
    403,
    'passkey_confirmation_required: an OAuth client setting changes and the token is missing, spent, expired or for another change (nothing changed)',
  )
  @ApiOkResponse({ type: ApplicationWithSecret })
  updateApplication(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Body() body: ApplicationSettingsBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<ApplicationWithSecret> {
    return this.applications.update(actor, app, body, confirmation);
  }

  @Post(':applicationId/client-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reset the client secret (passkey confirmation client_secret.reset)',
    description: 'The new secret is in this answer only; the old one stops working at once.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('client_secret.reset')
  @Conflict('a `none` client has no secret (checked before the confirmation is spent)')
  @ApiOkResponse({ type: ClientSecretView })
  resetClientSecret(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<ClientSecretView> {
    return this.applications.resetClientSecret(actor, app, confirmation);
  }

  @Delete(':applicationId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete the application (passkey confirmation application.delete)',
    description: 'Its keys, users, tokens and events go with it; its audit log stays.',
  })
  @ApplicationRole('owner')
  @PasskeyConfirmed('application.delete')
  @ApiNoContentResponse()
  deleteApplication(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.applications.delete(actor, app, confirmation);
  }
}
