import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
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
import { ApplicationRole, BadBody, Conflict, PasskeyConfirmed } from './console-apps.openapi';
import { ConsoleKeys } from './console-keys.service';
import { NewKeyBody } from './key.dto';
import { IssuedKeyView, KeyView, RotatedKeyView } from './key-views';

/** The API-access tab: admins only; every change needs a passkey confirmation. */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/keys')
export class ConsoleKeysController {
  constructor(private readonly keys: ConsoleKeys) {}

  @Get()
  @ApiOperation({ summary: "The application's API keys, rotated ones with their grace period" })
  @ApplicationRole('admin')
  @ApiOkResponse({ type: [KeyView] })
  listKeys(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
  ): Promise<KeyView[]> {
    return this.keys.list(actor, id);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a key with the chosen scopes (passkey confirmation key.create)',
    description: 'The plaintext is in this answer only.',
  })
  @PasskeyConfirmed('key.create', 'admin')
  @ApiBody({ type: NewKeyBody })
  @BadBody(
    'invalid_body, unknown_field: a name of 1 to 100 characters and at least one known scope',
  )
  @ApiCreatedResponse({ type: IssuedKeyView })
  createKey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    // Checked by the service after the role: `unknown` keeps the global pipe off it.
    @Body() body: unknown,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<IssuedKeyView> {
    return this.keys.create(actor, id, body, confirmation);
  }

  @Post(':keyId/rotate')
  @ApiOperation({
    summary: 'Rotate a key (passkey confirmation key.rotate)',
    description:
      'A new key with the same name and scopes; the old one keeps working for 24 hours, then is refused. The new plaintext is in this answer only.',
  })
  @PasskeyConfirmed('key.rotate', 'admin')
  @Conflict(
    'only an active key that was not rotated yet can be rotated (checked before the confirmation is spent)',
  )
  @ApiCreatedResponse({ type: RotatedKeyView })
  rotateKey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<RotatedKeyView> {
    return this.keys.rotate(actor, id, keyId, confirmation);
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a key at once, grace period or not (passkey confirmation key.revoke)',
  })
  @PasskeyConfirmed('key.revoke', 'admin')
  @ApiOkResponse({ type: KeyView })
  revokeKey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<KeyView> {
    return this.keys.revoke(actor, id, keyId, confirmation);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a key for good (passkey confirmation key.delete)' })
  @PasskeyConfirmed('key.delete', 'admin')
  @ApiNoContentResponse()
  deleteKey(
    @ConsoleActor() actor: ConsoleActor,
    @Param('applicationId') id: string,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.keys.delete(actor, id, keyId, confirmation);
  }
}
