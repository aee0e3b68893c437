import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiProperty } from '@nestjs/swagger';
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
import { SIGN_UPS_PER_ADDRESS } from './sign-up-attempts';

// Sign-up on the login pages (docs/accounts.md, "Sign-up").

const NOT_OFFERED =
  'Sign-up is not offered: SIGNUP_ENABLED is false, the application has not turned it on, or the request does not offer password sign-in';

export class SignUpForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({
    description: '3 to 64 letters, digits, "_", "." or "-", starting with a letter or digit',
  })
  username!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({
    description:
      '8 to 256 characters and a zxcvbn score of at least 3 (docs/accounts.md, "Passwords")',
  })
  password!: string;
}

export const ShowSignUpDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign-up page (HTML)',
      description: 'Linked from the login page ("Create an account") when sign-up is offered.',
    }),
    requestQuery(),
    htmlPage(200, 'The sign-up form'),
    expiredRequest(),
    htmlPage(404, NOT_OFFERED),
  );

export const SubmitSignUpDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign up (sign-up form)',
      description: `Checks the form, then emails a code to the address, or, when an account already holds the address, a notice that says so; both answer the same redirect and set the same HttpOnly cookie idsvc_signup (an HMAC of the code's id under the service's key, 15 minutes) that binds the code to this browser (no answer tells whether an address has an account). A taken username is said plainly (409). At most ${SIGN_UPS_PER_ADDRESS} submissions per client address per 15 minutes are checked; the emailed codes have their own limits (docs/accounts.md, "Limits").`,
    }),
    formBody(SignUpForm),
    redirectTo(303, 'To /oauth2/signup/verify?request=…&id=… (the code page)'),
    htmlPage(
      400,
      'The form again with the problem (username, email or password rule), the password left out; or the request expired',
    ),
    htmlPage(404, NOT_OFFERED),
    htmlPage(409, 'The form again: the username is taken (compared regardless of case)'),
    htmlPage(429, 'Too many sign-ups from this address, or too many codes (Retry-After)'),
    htmlPage(
      503,
      'The email could not be sent, or too many passwords are being hashed at this moment (Retry-After)',
    ),
    formRefusals(),
  );

export const ShowSignUpCodeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign-up code page (HTML)',
      description:
        'The form where the emailed code is entered, in the browser that submitted the sign-up form (its idsvc_signup cookie). Opening the emailed link there fills the code in; the person still submits it. Any other browser gets a page saying to enter the code in the browser where the sign-up started, with no form.',
    }),
    codePageQuery(),
    htmlPage(200, 'The code form; in another browser, where to enter the code (no form)'),
    htmlPage(400, 'id missing or malformed, or the request expired'),
    htmlPage(404, NOT_OFFERED),
  );

export const SubmitSignUpCodeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Finish sign-up (code form)',
      description:
        'The right code, from the browser that submitted the sign-up form (its idsvc_signup cookie), creates the account (email verified) in the transaction that spends the code, sets the session cookie idsvc_session and continues the authorization as after a sign-in. Another browser is refused before the code is tried. Every refusal answers after the same 250 ms floor as the password reset page.',
    }),
    formBody(CodeForm),
    redirectTo(
      303,
      'Signed up: to /oauth2/consent?request=…, or to redirect_uri with a code or an error',
    ),
    htmlPage(
      400,
      'The code form again: the code is wrong or has expired; or the request expired; or, from another browser, where to enter the code (no form)',
    ),
    htmlPage(404, NOT_OFFERED),
    htmlPage(409, 'The username or the address was taken in the meantime: start again'),
    formRefusals(),
  );
