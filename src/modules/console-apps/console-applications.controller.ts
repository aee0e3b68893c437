import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ConsoleActor, ConsoleRoute } from '../console/console-session';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/passkey-confirmations.service';
import {
  ApplicationDetail,
  ApplicationSettingsBody,
  ApplicationSummary,
  ApplicationWithSecret,
  ClientSecretView,
  NewApplicationBody,
} from './application-views';
import { ConsoleApplications } from './console-applications.service';
import { ApplicationRole, BadBody, Conflict, PasskeyConfirmed } from './console-apps.openapi';

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
  @ApiBody({ type: NewApplicationBody })
  @BadBody(
    'invalid_body, unknown_field: the body; invalid_request: a name, URL or redirect URI the rules refuse',
  )
  @ApiCreatedResponse({ type: ApplicationWithSecret })
  createApplication(
    @ConsoleActor() actor: ConsoleActor,
    @Body() body: unknown,
  ): Promise<ApplicationWithSecret> {
    return this.applications.create(actor, body);
  }

  @Get(':applicationId')
  @ApiOperation({ summary: 'One application (viewer: without client and settings)' })
  @ApplicationRole('viewer')
  @ApiOkResponse({ type: ApplicationDetail })
  getApplication(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
  ): Promise<ApplicationDetail> {
    return this.applications.get(actor, id);
  }

  @Patch(':applicationId')
  @ApiOperation({
    summary: 'Change settings (admin)',
    description:
      'Switching clientAuthMethod to `secret` issues a client secret, returned in this answer only; switching to `none` drops it.',
  })
  @ApiBody({ type: ApplicationSettingsBody })
  @ApplicationRole('admin')
  @BadBody(
    'invalid_body, unknown_field, empty_body: the body; invalid_request: a value the rules refuse',
  )
  @ApiOkResponse({ type: ApplicationWithSecret })
  updateApplication(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Body() body: unknown,
  ): Promise<ApplicationWithSecret> {
    return this.applications.update(actor, id, body);
  }

  @Post(':applicationId/client-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reset the client secret (admin, passkey confirmation client_secret.reset)',
    description: 'The new secret is in this answer only; the old one stops working at once.',
  })
  @PasskeyConfirmed('client_secret.reset', 'admin')
  @Conflict('a `none` client has no secret (checked before the confirmation is spent)')
  @ApiOkResponse({ type: ClientSecretView })
  resetClientSecret(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<ClientSecretView> {
    return this.applications.resetClientSecret(actor, id, confirmation);
  }

  @Delete(':applicationId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete the application (owner, passkey confirmation application.delete)',
    description: 'Its keys, users, tokens and events go with it; its audit log stays.',
  })
  @PasskeyConfirmed('application.delete', 'owner')
  @ApiNoContentResponse()
  deleteApplication(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.applications.delete(actor, id, confirmation);
  }
}
