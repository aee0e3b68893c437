import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../../common/errors/error-body.openapi';

/** OpenAPI of a route that needs `X-Passkey-Confirmation` for `action` (docs/console.md). */
export const PasskeyConfirmed = (action: string): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'X-Passkey-Confirmation',
      required: true,
      description: `The confirmationToken of POST /api/console/confirmations/{confirmationId} for ${action} on this target; single use, at most 5 minutes`,
    }),
    ApiErrorResponse(
      403,
      'passkey_confirmation_required: the token is missing, spent, expired, forged or for another user, action or target (nothing changed)',
    ),
  );
