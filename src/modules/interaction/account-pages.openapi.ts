import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiQuery } from '@nestjs/swagger';
import { formBody, formRefusalPages, htmlPage, redirectTo } from '../../common/http/page-openapi';

export { formBody, htmlPage, redirectTo };

// OpenAPI building blocks of the account pages of an authorization (sign-up, email
// verification): HTML pages and redirects, never JSON, like the login page's.

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

/** The answers every page of an authorization may give for its request. */
export const expiredRequest = (): MethodDecorator =>
  htmlPage(400, 'Request expired: the sealed request is invalid, expired or already answered');

/** A form refuses foreign submissions and unreadable bodies with an HTML page. */
export const formRefusals = (): MethodDecorator =>
  formRefusalPages('Form expired: the csrf_token does not belong to this browser and request');

/** The code form of a code page. */
export class CodeForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ description: CODE_ID, format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The six digits of the email (spaces ignored)', example: '042917' })
  code!: string;
}
