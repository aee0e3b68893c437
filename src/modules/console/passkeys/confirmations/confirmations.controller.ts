import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../../common/errors/error-body.openapi';
import { SessionAuth } from '../../../../common/http/openapi-security';
import { RequestId } from '../../../../common/http/request-id.decorator';
import { ConsoleActor, ConsoleRoute } from '../../session/console-session';
import { ConfirmationAnswer, ConfirmationRequest } from './confirmation.dto';
import { ConfirmationTargets } from './confirmation-targets';
import {
  ConfirmationGrant,
  ConfirmationStart,
  PasskeyConfirmations,
} from './passkey-confirmations.service';

/** The passkey confirmation exchange (docs/console.md, "Passkeys and confirmations"). */
@ApiTags('console')
@SessionAuth()
@ConsoleRoute()
@Controller('api/console/confirmations')
export class ConfirmationsController {
  constructor(
    private readonly targets: ConfirmationTargets,
    private readonly confirmations: PasskeyConfirmations,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Start a passkey confirmation of one action on one target',
    description:
      "Answers WebAuthn request options for the user's own passkeys. The target must exist and the user must hold the role the action needs (404/403 like the operation); a user without a passkey gets 409 passkey_not_registered.",
  })
  @ApiCreatedResponse({ type: ConfirmationStart })
  @ApiErrorResponse(
    400,
    'invalid_body: unknown action, a target field missing or mistyped; unknown_field',
  )
  @ApiErrorResponse(403, 'forbidden: a role below what the action needs')
  @ApiErrorResponse(404, 'not_found: no role in the application, or no such key or passkey')
  @ApiErrorResponse(409, 'passkey_not_registered: register a passkey first')
  startConfirmation(
    @ConsoleActor() actor: ConsoleActor,
    @Body() request: ConfirmationRequest,
  ): Promise<ConfirmationStart> {
    return this.targets.begin(actor, request);
  }

  @Post(':confirmationId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer a confirmation with a passkey assertion',
    description:
      'Answers a single-use token (at most 5 minutes) for the X-Passkey-Confirmation header of the operation. A failed verification is 403 passkey_confirmation_required; the challenge is spent either way.',
  })
  @ApiOkResponse({ type: ConfirmationGrant })
  @ApiErrorResponse(
    403,
    'passkey_confirmation_required: unknown, expired or used challenge, or the assertion does not verify',
  )
  confirm(
    @ConsoleActor() actor: ConsoleActor,
    @Param('confirmationId') confirmationId: string,
    @Body() answer: ConfirmationAnswer,
    @RequestId() requestId: string,
  ): Promise<ConfirmationGrant> {
    return this.confirmations.confirm(actor.user.id, confirmationId, answer.response, requestId);
  }
}
