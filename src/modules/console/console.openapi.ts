import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrorResponse } from '../../common/errors/error-body.openapi';
import type { ConsoleRole } from './roles/console-access.service';

/**
 * OpenAPI of the per-application console routes: the role errors every such route has, and the
 * passkey confirmation of key, secret and delete routes. The session, CSRF and 415 answers are
 * added by the document builder from the guard (src/openapi/console-security.ts).
 */
export const ApplicationRole = (needed: ConsoleRole): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiErrorResponse(
      404,
      'not_found: no such application, or no console role in it (the same answer); for keys and users also an unknown id',
    ),
    ...(needed === 'viewer'
      ? []
      : [ApiErrorResponse(403, `forbidden: this needs the ${needed} role in the application`)]),
  );

/** A route that needs `X-Passkey-Confirmation` for `action` (docs/console.md). */
export const PasskeyConfirmed = (
  action: string,
  needed: ConsoleRole,
): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'X-Passkey-Confirmation',
      required: true,
      description: `The confirmationToken of POST /api/console/confirmations/{confirmationId} for ${action} on this target; single use, at most 5 minutes`,
    }),
    ApiErrorResponse(
      404,
      'not_found: no such application, or no console role in it (the same answer); for keys also an unknown id or another application’s',
    ),
    ApiErrorResponse(
      403,
      `forbidden: this needs the ${needed} role; passkey_confirmation_required: the token is missing, spent, expired, forged or for another user, action or target (nothing changed)`,
    ),
  );

export const BadBody = (codes: string): MethodDecorator => ApiErrorResponse(400, codes);
export const Conflict = (when: string): MethodDecorator =>
  ApiErrorResponse(409, `conflict: ${when}`);
