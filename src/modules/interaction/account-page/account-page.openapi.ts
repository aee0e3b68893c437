import { applyDecorators } from '@nestjs/common';
import {
  formBody as form,
  formRefusalPages,
  htmlPage as html,
  redirectTo as redirect,
} from '../../../common/http/page-openapi';
import {
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiResponse,
} from '@nestjs/swagger';
import { SessionAuth } from '../../../common/http/openapi-security';
import { SIGN_IN_STARTS_PER_ADDRESS } from '../../passkeys/sign-in/passkey-sign-in.service';
import { PasskeyCeremonyStart } from '../../passkeys/passkey-view';

// Documentation of the account page (docs/accounts.md): HTML pages, form posts and redirects,
// never JSON.

const CSRF =
  'The form token of the page, bound to the session and to this form (GET /account or /account/login)';

/** A form of the signed-in page refuses foreign submissions and unreadable bodies. */
const formRefusals = (): MethodDecorator =>
  applyDecorators(
    redirect(303, 'Not signed in: to /account/login (nothing is changed)'),
    formRefusalPages("Form expired: the csrf_token is not this session's token for this form"),
  );

export class AccountLoginForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
  @ApiProperty({ description: 'Username or email' }) username!: string;
  @ApiProperty() password!: string;
}

export class AccountPasskeyLoginForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
  @ApiProperty({ format: 'uuid', description: 'The ceremonyId of the options' })
  ceremony_id!: string;
  @ApiProperty({
    description:
      'The AuthenticationResponseJSON of navigator.credentials.get() as JSON text (binary fields base64url)',
  })
  assertion!: string;
}

export class AccountCsrfForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
}

export class AccountProfileForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
  @ApiProperty({ maxLength: 64, description: 'Trimmed; empty for none; no control characters' })
  nickname!: string;
  @ApiProperty({
    maxLength: 2000,
    description: 'Trimmed; empty for none; https://, or http:// on a loopback host',
  })
  avatar!: string;
}

export class AccountEmailCodeForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
  @ApiProperty({
    maxLength: 254,
    description: 'An unverified address of the account, or a new one (at most 10 per account)',
  })
  email!: string;
}

export class AccountConfirmEmailForm {
  @ApiProperty({ description: 'The form token of GET /account/emails/confirm' })
  csrf_token!: string;
  @ApiProperty({ format: 'uuid', description: 'The code id of the page' }) id!: string;
  @ApiProperty({ pattern: '^[0-9]{6}$', description: 'The six digits of the email' })
  code!: string;
}

export class AccountPasswordForm {
  @ApiProperty({ description: CSRF }) csrf_token!: string;
  @ApiPropertyOptional({ description: 'Required when the account has a password' })
  current_password?: string;
  @ApiProperty({ minLength: 8, maxLength: 256, description: 'The rule of docs/accounts.md' })
  new_password!: string;
  @ApiProperty({ description: 'The new password again' }) repeat_password!: string;
}

export const ShowAccountDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'The account page (HTML)',
      description:
        'Profile, email addresses, password, passkeys, connected accounts, the applications the user authorized and the recent sign-ins. Its script (GET /account/assets/account.js) adds and removes passkeys and connected accounts through /api/console.',
    }),
    ApiQuery({
      name: 'done',
      required: false,
      description: 'Shows the fixed notice of a change that just succeeded; unknown values none',
      schema: {
        type: 'string',
        enum: [
          'profile',
          'password',
          'revoked',
          'passkey_added',
          'passkey_removed',
          'upstream_connected',
          'upstream_disconnected',
          'email_verified',
        ],
      },
    }),
    SessionAuth(),
    html(200, 'The account page'),
    redirect(302, 'Not signed in: to /account/login'),
  );

export const ShowAccountLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Sign-in page of the account page (HTML)' }),
    html(200, 'The sign-in form (sets the idsvc_csrf cookie its token is bound to)'),
    redirect(302, 'Already signed in: to /account'),
  );

export const SubmitAccountLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign in to the account page',
      description:
        "The password check of POST /oauth2/login (throttled per account and address and per address); on success a session (idsvc_session, the OAuth pages' and the console's) and a sign-in record.",
    }),
    form(AccountLoginForm),
    redirect(303, 'Signed in: to /account'),
    html(401, 'The form again: wrong username or password'),
    html(429, 'The form again: too many failed sign-ins from this address (Retry-After)'),
    html(503, 'The form again: too many password checks waiting (Retry-After)'),
    html(403, 'Form expired: the csrf_token does not belong to this browser'),
  );

export const StartAccountPasskeyLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Start a passkey sign-in (account sign-in page script)',
      description: `Called by the sign-in page's script with the page's csrf_token. Answers WebAuthn request options with no allowCredentials and the ceremony id to send back with the assertion (single use, 5 minutes), as POST /oauth2/login/passkey/options does, under the same per-address quota (${SIGN_IN_STARTS_PER_ADDRESS} starts per 15 minutes, one bucket with the console's and the login page's). An Origin header, when sent, must be this service's origin; refused requests are not counted.`,
    }),
    form(AccountCsrfForm),
    ApiResponse({ status: 200, description: 'The options', type: PasskeyCeremonyStart }),
    html(403, 'A foreign Origin header, or a csrf_token that does not belong to this browser'),
    html(429, 'Too many passkey sign-ins started from this address (Retry-After)'),
  );

export const SubmitAccountPasskeyLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign in to the account page with a passkey',
      description:
        "The assertion of a ceremony started by POST /account/login/passkey/options, posted as a form by the page's script. On success a session with auth method passkey and a sign-in record.",
    }),
    form(AccountPasskeyLoginForm),
    redirect(303, 'Signed in: to /account'),
    html(
      401,
      'The form again with "That passkey could not be used to sign in.": the ceremony is unknown, expired or used, or the assertion does not verify (never saying which)',
    ),
    html(403, 'Form expired: the csrf_token does not belong to this browser'),
  );

export const AccountLogoutDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Sign out (ends the session for the OAuth pages and the console)' }),
    form(AccountCsrfForm),
    SessionAuth(),
    redirect(303, 'To /account/login, the session cookie cleared'),
    html(403, "Form expired: the csrf_token is not this session's sign-out token"),
  );

export const UpdateProfileDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Change the nickname and avatar URL' }),
    form(AccountProfileForm),
    SessionAuth(),
    redirect(303, 'Saved: to /account?done=profile'),
    html(400, 'The page again with the refused field explained; nothing is saved'),
    formRefusals(),
  );

export const SendEmailCodeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Email a verification code to an address of the account, or to a new one',
      description:
        'One-time code of docs/accounts.md (6 digits, 15 minutes, one open code per account: a new one stops the earlier). Whether another account holds the address is said only to whoever enters the code.',
    }),
    form(AccountEmailCodeForm),
    SessionAuth(),
    redirect(303, 'Sent: to /account/emails/confirm?id=… (the form to enter the code)'),
    html(400, 'The page again: not an address, verified already, or 10 addresses already'),
    html(429, 'The page again: too many codes for this address, account or client (Retry-After)'),
    html(503, 'The page again: the SMTP server did not take the message'),
    formRefusals(),
  );

export const ShowConfirmEmailDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'The form to enter an emailed verification code (HTML)',
      description:
        'The link of the email opens it with the code filled in; only the form spends it.',
    }),
    ApiQuery({
      name: 'id',
      required: true,
      description: 'The code id',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'code',
      required: false,
      description: 'Filled into the form when it is six digits',
      schema: { type: 'string' },
    }),
    SessionAuth(),
    html(200, 'The code form'),
    redirect(302, 'Not signed in: to /account/login'),
  );

export const ConfirmEmailDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Verify an address with its emailed code',
      description:
        'A right code of this account makes the address a verified one of it (and its email when it had none). Every try counts; the fifth wrong one spends the code.',
    }),
    form(AccountConfirmEmailForm),
    SessionAuth(),
    redirect(303, 'Verified: to /account?done=email_verified'),
    html(400, 'The form again: the code is wrong, expired, spent or not for this account'),
    html(409, 'The form again: the address belongs to another account (nothing changed)'),
    formRefusals(),
  );

export const ChangePasswordDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Change the password, or set a first one',
      description:
        "The current password is checked like a sign-in (a wrong one counts as a failed sign-in of the account and address). An account without a password may set one within 5 minutes of a password or upstream sign-in. On success the user's other sessions end and user.password_change is audited, in one transaction.",
    }),
    form(AccountPasswordForm),
    SessionAuth(),
    redirect(303, 'Changed: to /account?done=password'),
    html(
      400,
      'The new passwords differ, or the new one fails the password rule (docs/accounts.md)',
    ),
    html(401, 'The current password is wrong (counted)'),
    html(429, 'Too many failed sign-ins from this address (Retry-After)'),
    html(503, 'Too many password checks waiting (Retry-After)'),
    html(403, 'Form expired; or no password yet and no sign-in within 5 minutes'),
    formRefusals(),
  );

export const RevokeApplicationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "Revoke an application's access to the account",
      description:
        "As the application API's POST /users/{userId}/revoke, in one transaction: every live token of the application for the user revoked (one token_revoked event each), the consent forgotten (the next authorization asks again), an authorization_revoked event saying the user revoked it from their account page.",
    }),
    ApiParam({ name: 'applicationId', description: 'The application id', type: 'integer' }),
    form(AccountCsrfForm),
    SessionAuth(),
    redirect(303, 'Revoked: to /account?done=revoked'),
    html(404, 'The user has no live grant for this application (or no such application)'),
    formRefusals(),
  );
