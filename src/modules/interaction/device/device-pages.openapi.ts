import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiQuery } from '@nestjs/swagger';
import { RETRY_AFTER } from '../../../common/errors/error-body.openapi';
import { SessionAuth } from '../../../common/http/openapi-security';
import {
  formBody as form,
  formRefusalPages,
  htmlPage as html,
  redirectTo as redirect,
} from '../../../common/http/page-openapi';

// Documentation of the device page (RFC 8628 section 3.3; docs/oauth.md, "Device authorization
// grant"): HTML pages and redirects, never JSON.

const SEALED_REQUEST =
  'The sealed pending authorization request of the device (opaque; expires after 10 minutes)';

export class DeviceCodeForm {
  @ApiProperty({ description: 'The form token of GET /device' }) csrf_token!: string;
  @ApiProperty({
    example: 'BCDF-GHJK',
    description: 'The user code, case-, dash- and space-insensitive',
  })
  user_code!: string;
}

export class DeviceConfirmForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the confirmation page' }) csrf_token!: string;
  @ApiProperty({ enum: ['approve', 'deny'] }) decision!: string;
}

const formRefusals = (): MethodDecorator =>
  formRefusalPages('Form expired: the csrf_token does not belong to this browser and form');

export const ShowDeviceDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Device page: enter the user code (HTML)' }),
    ApiQuery({
      name: 'user_code',
      required: false,
      description: 'verification_uri_complete: fills the form, approves nothing',
      schema: { type: 'string' },
    }),
    html(200, 'The code entry form'),
  );

export const SubmitDeviceDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Submit a user code (device page form)' }),
    form(DeviceCodeForm),
    redirect(
      303,
      'A usable code: to /oauth2/login?request=… (not signed in) or /device/confirm?request=…',
    ),
    html(400, 'The form again, with one message for a wrong, expired or used code'),
    html(
      429,
      'More than 10 unusable codes within 10 minutes from this address or browser; the code is not looked up',
      RETRY_AFTER,
    ),
    formRefusals(),
  );

export const ShowConfirmDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Device confirmation page (HTML)' }),
    ApiQuery({ name: 'request', required: true, description: SEALED_REQUEST }),
    SessionAuth(),
    html(200, 'Application, account, scopes, user code, warning; approve and deny'),
    redirect(
      302,
      'To /oauth2/login?request=… when not signed in; to /oauth2/verify-email or /oauth2/bind-upstream when the application requires it',
    ),
    html(400, 'The request expired, the code is no longer usable, or the rules refuse the user'),
  );

export const SubmitConfirmDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Approve or deny a device (confirmation form)' }),
    form(DeviceConfirmForm),
    SessionAuth(),
    html(200, 'Approved ("you may return to your device") or denied'),
    redirect(303, 'To /oauth2/login?request=… when not signed in'),
    html(
      400,
      'decision is neither approve nor deny, the request expired, the code is no longer usable, or the rules refuse the user',
    ),
    formRefusals(),
  );
