import { applyDecorators } from '@nestjs/common';
import {
  formBody as form,
  formRefusalPages,
  htmlPage as html,
  redirectTo as redirect,
} from '../../../common/http/page-openapi';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery } from '@nestjs/swagger';
import { CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS } from '../one-time-codes/one-time-codes.service';

// Documentation of the password reset pages (docs/accounts.md, "Password reset"). Like the login
// page they answer HTML pages and redirects, never JSON.

const REQUEST =
  'The sealed authorization request of the login page the person came from (opaque); absent when the reset was started from the account page. Without it the reset ends at /account';

const query = (name: string, required: boolean, description: string): MethodDecorator =>
  ApiQuery({ name, required, description, schema: { type: 'string' } });

/** A form page refuses foreign submissions and unreadable bodies with an HTML page. */
const formRefusals = (): MethodDecorator =>
  formRefusalPages('Form expired: the csrf_token does not belong to this browser and form');

/** The forgot-password form. */
export class ForgotPasswordForm {
  @ApiPropertyOptional({ description: REQUEST }) request?: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ description: 'The address of the account (primary, or a verified one)' })
  email!: string;
}

/** The reset form. */
export class ResetPasswordForm {
  @ApiProperty({ description: 'The id of the code, from the link', format: 'uuid' }) id!: string;
  @ApiPropertyOptional({ description: REQUEST }) request?: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ description: 'The six digits from the email (spaces ignored)' }) code!: string;
  @ApiProperty({ description: 'The new password: 8 to 256 characters, not easy to guess' })
  password!: string;
  @ApiProperty({ description: 'The new password again' }) password_repeat!: string;
}

export const ShowForgotPasswordDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Forgot-password page (HTML)',
      description: 'Linked from the login page ("Forgot your password?") and the account page.',
    }),
    query('request', false, REQUEST),
    html(200, 'The form: one field, the email address'),
    html(
      400,
      'Request expired (the sealed request is invalid, expired or answered), or the request does not offer the password form',
    ),
  );

export const SubmitForgotPasswordDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Ask for a password reset code',
      description:
        'When an account uses the address (its primary email, or a verified one; any case), a six-digit code is emailed with a link to the reset page. The answer is the same whether or not an account uses it: the same redirect, the same limits (5 codes an hour per address, 10 per account, 30 per client address), and the email leaves after the answer.',
    }),
    form(ForgotPasswordForm),
    redirect(
      303,
      'To /oauth2/reset-password?id=…(&request=…), for every well-formed address; cookie idsvc_reset binds that id and request to this browser for the 15 minutes of a code',
    ),
    html(
      400,
      'The form again: not an email address; or the request expired or does not offer the password form',
    ),
    html(429, 'The form again, with Retry-After: too many codes asked for'),
    formRefusals(),
  );

export const ShowResetPasswordDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Reset page (HTML)',
      description:
        'The code (filled in from the emailed link) and the new password twice. Opening the page spends nothing: the person submits it.',
    }),
    query('id', true, 'The id of the code'),
    query('code', false, 'The code, from the emailed link'),
    query('request', false, REQUEST),
    html(200, 'The form'),
    html(400, 'The link has no valid id'),
  );

export const SubmitResetPasswordDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Set a new password with an emailed code',
      description: `A refused password (its length, checked first; or too easy to guess, with the account's names, once the code is right) leaves the code usable. The right code (single use, ${CODE_TTL_SECONDS / 60} minutes, spent by ${MAX_CODE_ATTEMPTS} wrong tries) sets the password, ends every session of the account, revokes every token of every application for it (one token_revoked event per application), verifies the primary address when the code went to it, and is audited (user.password_reset), in one transaction; a notice is emailed. The browser that asked for the code (its idsvc_reset cookie) then gets a new session (cookie idsvc_session) and continues; any other browser is redirected to /account, not signed in.`,
    }),
    form(ResetPasswordForm),
    redirect(
      303,
      'In the browser that asked for the code, with a request: as after a sign-in (consent page, or redirect_uri with a code or an error); without one: to /account. In another browser: to /account, not signed in',
    ),
    html(
      200,
      'Password changed, signed in, but the authorization request expired or was answered meanwhile',
    ),
    html(
      400,
      'The form again: the code is wrong, expired or spent; the password is refused (with the reason) or the two differ; or the link has no valid id',
    ),
    formRefusals(),
  );
