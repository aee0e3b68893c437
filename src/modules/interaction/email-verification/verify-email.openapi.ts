import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionAuth } from '../../../common/http/openapi-security';
import { formRefusalPages } from '../../../common/http/page-openapi';
import {
  codePageQuery,
  CodeForm,
  expiredRequest,
  formBody,
  formRefusals,
  htmlPage,
  redirectTo,
  requestQuery,
  SEALED_REQUEST,
} from '../account-pages.openapi';

// Email verification during an authorization (docs/accounts.md, "Email verification").

const TO_LOGIN = 'To /oauth2/login?request=… when not signed in';

export class SendVerificationForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiPropertyOptional({
    format: 'email',
    description:
      "Only when the account has no email: the address to verify (ignored otherwise: the account's email is verified)",
  })
  email?: string;
  @ApiPropertyOptional({
    description:
      'Only when the account has no email and has a password: its current password (adding an address is a new way into the account: the step-up of the account page)',
  })
  current_password?: string;
}

export const ShowVerifyEmailDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Email verification page (HTML)',
      description:
        "Where an authorization goes when the application requires a verified email and the signed-in user's is not: shows the address (or asks for one when the account has none) and a Send a code button.",
    }),
    requestQuery(),
    SessionAuth(),
    htmlPage(200, 'What the application needs, and the form that sends a code'),
    redirectTo(
      302,
      `${TO_LOGIN}; when nothing is left to verify, on as after a sign-in (consent page, or redirect_uri)`,
    ),
    expiredRequest(),
  );

export const SendVerifyEmailDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Send an email verification code',
      description:
        "Emails a code to the address; whether another account holds it is not said here (only when the code is entered). An address typed by an account without an email is a new one: it takes the account page's step-up first (the current password, or for an account without one a sign-in within the last 5 minutes).",
    }),
    formBody(SendVerificationForm),
    SessionAuth(),
    redirectTo(303, `To /oauth2/verify-email/code?request=…&id=… (the code page); ${TO_LOGIN}`),
    htmlPage(400, 'The page again: the address typed is not valid; or the request expired'),
    htmlPage(401, 'The page again: the current password is wrong (counted as a failed sign-in)'),
    htmlPage(
      429,
      'Too many codes for this address, account or client address; or too many failed password checks (Retry-After)',
    ),
    htmlPage(503, 'The email could not be sent; or too many password checks at this moment'),
    formRefusalPages(
      'Form expired: the csrf_token does not belong to this browser and request; or an account without a password whose sign-in is older than 5 minutes (the page links to the login page of the same request)',
    ),
  );

export const ShowVerifyEmailCodeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Email verification code page (HTML)',
      description:
        'The form where the emailed code is entered. Opening the emailed link fills the code in; the person still submits it.',
    }),
    codePageQuery(),
    SessionAuth(),
    htmlPage(200, 'The code form'),
    redirectTo(302, TO_LOGIN),
    htmlPage(400, 'id missing or malformed, or the request expired'),
  );

export const ConfirmVerifyEmailDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Verify the email (code form)',
      description:
        "The right code marks the address verified (the account's email, email_verified, its emails entry verified and primary) and the authorization continues as after a sign-in.",
    }),
    formBody(CodeForm),
    SessionAuth(),
    redirectTo(
      303,
      `Verified: to /oauth2/consent?request=…, or to redirect_uri with a code or an error; ${TO_LOGIN}`,
    ),
    htmlPage(400, 'The code form again: the code is wrong or has expired; or the request expired'),
    htmlPage(409, 'Another account holds the address'),
    formRefusals(),
  );
