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
  Put,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { BadBody, Conflict } from '../console.openapi';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/confirmations/confirmation-actions';
import { PasskeyConfirmed } from '../passkeys/confirmations/passkey-confirmed.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { ConsoleWebhooks } from './console-webhooks.service';
import {
  NewWebhookBody,
  ReplayBody,
  ResendBody,
  WebhookPatchBody,
  WebhookUrlBody,
} from './webhook.dto';
import {
  CreatedWebhookView,
  ReplayedWebhookView,
  WebhookDeliveryView,
  WebhookEndpointView,
} from './webhook-views';

const ENDPOINT_NOT_FOUND =
  'not_found: also an unknown endpoint id, or an endpoint of another application';
const URL_REFUSED =
  'invalid_body, unknown_field; invalid_request: not an https URL, credentials, a fragment, over 2048 characters; insecure_endpoint: http off loopback or without WEBHOOKS_ALLOW_INSECURE (checked before the confirmation is spent)';

/** The Webhooks tab: admins only; creating, the URL, the secret, deleting and replays need a passkey. */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/webhooks')
export class ConsoleWebhooksController {
  constructor(private readonly webhooks: ConsoleWebhooks) {}

  @Get()
  @ApiOperation({ summary: "The application's webhook endpoints, by id (never their secrets)" })
  @ApplicationRole('admin')
  @ApiOkResponse({ type: [WebhookEndpointView] })
  listWebhooks(@ScopedApplication() app: ScopedApplication): Promise<WebhookEndpointView[]> {
    return this.webhooks.list(app);
  }

  @Post()
  @ApiOperation({
    summary: 'Add an endpoint (passkey confirmation webhook.create, bound to the URL)',
    description:
      'It receives the events committed from now on. The signing secret is in this answer only.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('webhook.create')
  @BadBody(`${URL_REFUSED}; eventTypes among the event types; description at most 200 characters`)
  @Conflict('the application has 10 endpoints already')
  @ApiCreatedResponse({ type: CreatedWebhookView })
  createWebhook(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Body() body: NewWebhookBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<CreatedWebhookView> {
    return this.webhooks.create(actor, app, body, confirmation);
  }

  @Patch(':endpointId')
  @ApiOperation({
    summary: 'Change the event types, the description, or enable / disable',
    description:
      'Enabling also clears the failure state: the held event is retried at once. Disabling keeps the cursor.',
  })
  @ApplicationRole('admin')
  @BadBody('invalid_body, unknown_field')
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiOkResponse({ type: WebhookEndpointView })
  updateWebhook(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Body() body: WebhookPatchBody,
  ): Promise<WebhookEndpointView> {
    return this.webhooks.update(actor, app, endpointId, body);
  }

  @Put(':endpointId/url')
  @ApiOperation({
    summary: 'Change the URL (passkey confirmation webhook.update_url, bound to the URL)',
    description:
      'A delivery in flight to the old URL no longer counts: the event goes to the new URL. The failure state is cleared.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('webhook.update_url')
  @BadBody(URL_REFUSED)
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiOkResponse({ type: WebhookEndpointView })
  changeWebhookUrl(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Body() body: WebhookUrlBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<WebhookEndpointView> {
    return this.webhooks.changeUrl(actor, app, endpointId, body, confirmation);
  }

  @Post(':endpointId/rotate-secret')
  @ApiOperation({
    summary: 'A new signing secret (passkey confirmation webhook.rotate_secret)',
    description:
      'The new secret is in this answer only; the replaced one keeps signing beside it for 24 hours.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('webhook.rotate_secret')
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiCreatedResponse({ type: CreatedWebhookView })
  rotateWebhookSecret(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<CreatedWebhookView> {
    return this.webhooks.rotateSecret(actor, app, endpointId, confirmation);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint and its log (passkey confirmation webhook.delete)' })
  @ApplicationRole('admin')
  @PasskeyConfirmed('webhook.delete')
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiNoContentResponse()
  deleteWebhook(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.webhooks.remove(actor, app, endpointId, confirmation);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({ summary: 'The delivery log: the last 100 attempts, newest first' })
  @ApplicationRole('admin')
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiOkResponse({ type: [WebhookDeliveryView] })
  listWebhookDeliveries(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
  ): Promise<WebhookDeliveryView[]> {
    return this.webhooks.deliveries(actor, app, endpointId);
  }

  @Post(':endpointId/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test event now',
    description:
      'Type webhook.test, webhook-id test_<uuid>, data {applicationId, endpointId}, signed like deliveries. The answer is the attempt (logged); a failure changes no state.',
  })
  @ApplicationRole('admin')
  @ApiErrorResponse(404, ENDPOINT_NOT_FOUND)
  @ApiOkResponse({ type: WebhookDeliveryView })
  testWebhook(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
  ): Promise<WebhookDeliveryView> {
    return this.webhooks.sendTest(actor, app, endpointId);
  }

  @Post(':endpointId/resend')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send one event again now',
    description:
      'The same webhook-id (evt_<id>) and body as its delivery; the cursor and the failure state do not move. The answer is the attempt (logged).',
  })
  @ApplicationRole('admin')
  @BadBody('invalid_body, unknown_field: eventId a positive integer')
  @ApiErrorResponse(
    404,
    "not_found: an unknown endpoint, or an event that is not one of the application's committed events",
  )
  @ApiOkResponse({ type: WebhookDeliveryView })
  resendWebhookEvent(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Body() body: ResendBody,
  ): Promise<WebhookDeliveryView> {
    return this.webhooks.resend(actor, app, endpointId, body);
  }

  @Post(':endpointId/replay')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send again from an event or a time on (passkey confirmation webhook.replay, bound to the body)',
    description:
      'The cursor moves back to just before that event of the application, or before the first event created at or after that time; the rounds then send from there, in order. It never moves forward, nor past the commit horizon. The failure state is cleared; a delivery in flight no longer moves the cursor.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('webhook.replay')
  @BadBody(
    'invalid_body, unknown_field; invalid_request: not exactly one of fromEventId and fromTime, or fromTime not RFC 3339',
  )
  @ApiErrorResponse(
    404,
    "not_found: an unknown endpoint, or fromEventId not one of the application's events",
  )
  @ApiOkResponse({ type: ReplayedWebhookView })
  replayWebhook(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('endpointId') endpointId: string,
    @Body() body: ReplayBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<ReplayedWebhookView> {
    return this.webhooks.replay(actor, app, endpointId, body, confirmation);
  }
}
