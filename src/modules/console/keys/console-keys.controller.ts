import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/confirmations/confirmation-actions';
import { BadBody, Conflict } from '../console.openapi';
import { PasskeyConfirmed } from '../passkeys/confirmations/passkey-confirmed.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleKeys } from './console-keys.service';
import { NewKeyBody } from './key.dto';
import { IssuedKeyView, KeyView, RotatedKeyView } from './key-views';

const KEY_NOT_FOUND = 'not_found: also an unknown key id, or a key of another application';

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
  listKeys(@ScopedApplication() app: ScopedApplication): Promise<KeyView[]> {
    return this.keys.list(app);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a key with the chosen scopes (passkey confirmation key.create)',
    description: 'The plaintext is in this answer only.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('key.create')
  @BadBody(
    'invalid_body, unknown_field: a name of 1 to 100 characters and at least one known scope',
  )
  @ApiCreatedResponse({ type: IssuedKeyView })
  createKey(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Body() body: NewKeyBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<IssuedKeyView> {
    return this.keys.create(actor, app, body, confirmation);
  }

  @Post(':keyId/rotate')
  @ApiOperation({
    summary: 'Rotate a key (passkey confirmation key.rotate)',
    description:
      'A new key with the same name and scopes; the old one keeps working for 24 hours, then is refused. The new plaintext is in this answer only.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('key.rotate')
  @ApiErrorResponse(404, KEY_NOT_FOUND)
  @Conflict(
    'only an active key that was not rotated yet can be rotated (checked before the confirmation is spent)',
  )
  @ApiCreatedResponse({ type: RotatedKeyView })
  rotateKey(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<RotatedKeyView> {
    return this.keys.rotate(actor, app, keyId, confirmation);
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a key at once, grace period or not (passkey confirmation key.revoke)',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('key.revoke')
  @ApiErrorResponse(404, KEY_NOT_FOUND)
  @ApiOkResponse({ type: KeyView })
  revokeKey(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<KeyView> {
    return this.keys.revoke(actor, app, keyId, confirmation);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a key for good (passkey confirmation key.delete)' })
  @ApplicationRole('admin')
  @PasskeyConfirmed('key.delete')
  @ApiErrorResponse(404, KEY_NOT_FOUND)
  @ApiNoContentResponse()
  deleteKey(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('keyId') keyId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.keys.delete(actor, app, keyId, confirmation);
  }
}
