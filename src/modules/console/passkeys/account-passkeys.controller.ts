import { PasskeyList } from '../../passkeys/passkey-list';
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
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { SessionAuth } from '../../../common/http/openapi-security';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { PASSKEY_CONFIRMATION_HEADER } from './confirmations/confirmation-actions';
import { PasskeyRegistration, PasskeyRename } from './passkey.dto';
import { PasskeyCeremonyStart, PasskeyView } from '../../passkeys/passkey-view';
import { PasskeysService } from './passkeys.service';

const CONFIRMATION_HEADER_DOC = (action: string, required: boolean): MethodDecorator =>
  ApiHeader({
    name: 'X-Passkey-Confirmation',
    required,
    description: `Confirmation token for ${action} (POST /api/console/confirmations); missing, spent, expired or mismatched → 403 passkey_confirmation_required`,
  });

/** The account page's passkeys (docs/console.md, "Passkeys and confirmations"). */
@ApiTags('console')
@SessionAuth()
@ConsoleRoute()
@Controller('api/console/account/passkeys')
export class AccountPasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly list: PasskeyList,
  ) {}

  @Get()
  @ApiOperation({ summary: "The signed-in user's passkeys" })
  @ApiOkResponse({ type: [PasskeyView] })
  listPasskeys(@ConsoleActor() actor: ConsoleActor): Promise<PasskeyView[]> {
    return this.list.of(actor.user.id);
  }

  @Post('options')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start registering a passkey',
    description:
      'The first passkey needs a password sign-in within the last 5 minutes (else 403 recent_sign_in_required); later ones a passkey.register confirmation.',
  })
  @CONFIRMATION_HEADER_DOC('passkey.register, when the account already has a passkey', false)
  @ApiOkResponse({ type: PasskeyCeremonyStart })
  @ApiErrorResponse(
    403,
    'recent_sign_in_required (first passkey), passkey_confirmation_required (later ones)',
  )
  startPasskeyRegistration(
    @ConsoleActor() actor: ConsoleActor,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<PasskeyCeremonyStart> {
    return this.passkeys.registrationOptions(actor, confirmation);
  }

  @Post()
  @ApiOperation({ summary: "Finish registering a passkey with the browser's attestation" })
  @ApiCreatedResponse({ type: PasskeyView })
  @ApiErrorResponse(
    400,
    'invalid_body: malformed body or name; unknown_field; invalid_request: the ceremony is unknown, expired or used, or the attestation does not verify',
  )
  @ApiErrorResponse(409, 'conflict: this credential is already registered')
  registerPasskey(
    @ConsoleActor() actor: ConsoleActor,
    @Body() body: PasskeyRegistration,
  ): Promise<PasskeyView> {
    return this.passkeys.register(actor, body);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a passkey' })
  @ApiOkResponse({ type: PasskeyView })
  @ApiErrorResponse(400, 'invalid_body: name must be 1 to 64 printable characters')
  @ApiErrorResponse(404, 'not_found: no such passkey of this account')
  renamePasskey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('id') id: string,
    @Body() body: PasskeyRename,
  ): Promise<PasskeyView> {
    return this.passkeys.rename(actor, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a passkey' })
  @CONFIRMATION_HEADER_DOC('passkey.remove with this passkeyId', true)
  @ApiNoContentResponse()
  @ApiErrorResponse(403, 'passkey_confirmation_required')
  @ApiErrorResponse(404, 'not_found: no such passkey of this account')
  removePasskey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('id') id: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.passkeys.remove(actor, id, confirmation);
  }
}
