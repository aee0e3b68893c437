import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiProperty, ApiQuery, ApiResponse } from '@nestjs/swagger';

// OpenAPI building blocks of the account pages of an authorization (sign-up, email
// verification): HTML pages and redirects, never JSON, like the login page's.

/** An HTML answer. */
export const htmlPage = (status: number, description: string): MethodDecorator =>
  ApiResponse({ status, description, content: { 'text/html': { schema: { type: 'string' } } } });

/** A redirect with its Location. */
export const redirectTo = (status: 302 | 303, description: string): MethodDecorator =>
  ApiResponse({
    status,
    description,
    headers: {
      Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
    },
  });

/** The hidden `request` field or query parameter: the sealed, validated authorization request. */
export const SEALED_REQUEST =
  'The sealed authorization request of the login page (opaque; expires 10 minutes after /oauth2/authorize, single use)';

export const CODE_ID = "The code's id, from the redirect to this page or the emailed link";

export const requestQuery = (): MethodDecorator =>
  ApiQuery({
    name: 'request',
    required: true,
    description: SEALED_REQUEST,
    schema: { type: 'string' },
  });

/** The query of a code page: the request, the code's id and (from the emailed link) the code. */
export const codePageQuery = (): MethodDecorator =>
  applyDecorators(
    requestQuery(),
    ApiQuery({
      name: 'id',
      required: true,
      description: CODE_ID,
      schema: { type: 'string', format: 'uuid' },
    }),
    ApiQuery({
      name: 'code',
      required: false,
      description:
        'The six digits, from the emailed link: filled into the form, never submitted by opening the link',
      schema: { type: 'string' },
    }),
  );

/** An application/x-www-form-urlencoded body of this shape. */
export const formBody = (type: new () => object): MethodDecorator =>
  applyDecorators(ApiConsumes('application/x-www-form-urlencoded'), ApiBody({ type }));

/** The answers every page of an authorization may give for its request. */
export const expiredRequest = (): MethodDecorator =>
  htmlPage(400, 'Request expired: the sealed request is invalid, expired or already answered');

/** A form refuses foreign submissions and unreadable bodies with an HTML page. */
export const formRefusals = (): MethodDecorator =>
  applyDecorators(
    htmlPage(403, 'Form expired: the csrf_token does not belong to this browser and request'),
    htmlPage(413, 'The form is larger than 32 kB'),
    htmlPage(415, 'Not application/x-www-form-urlencoded UTF-8'),
  );

/** The code form of a code page. */
export class CodeForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ description: CODE_ID, format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The six digits of the email (spaces ignored)', example: '042917' })
  code!: string;
}
