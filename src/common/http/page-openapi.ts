import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiResponse } from '@nestjs/swagger';
import type { RETRY_AFTER } from '../errors/error-body.openapi';

// OpenAPI building blocks of the server-rendered pages (login, consent, sign-up, reset, the
// account page): they answer HTML pages and redirects, never JSON, and take HTML forms.

/** An HTML answer (with its headers, e.g. Retry-After). */
export const htmlPage = (
  status: number,
  description: string,
  headers?: typeof RETRY_AFTER,
): MethodDecorator =>
  ApiResponse({
    status,
    description,
    content: { 'text/html': { schema: { type: 'string' } } },
    ...(headers && { headers }),
  });

/** A redirect with its Location. */
export const redirectTo = (status: 302 | 303, description: string): MethodDecorator =>
  ApiResponse({
    status,
    description,
    headers: {
      Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
    },
  });

/** An application/x-www-form-urlencoded body of this shape. */
export const formBody = (type: new () => object): MethodDecorator =>
  applyDecorators(ApiConsumes('application/x-www-form-urlencoded'), ApiBody({ type }));

/**
 * What every page form answers to a submission it does not take: 403 (`forbidden`, the form's
 * own CSRF wording), 413 and 415, as HTML pages.
 */
export const formRefusalPages = (forbidden: string): MethodDecorator =>
  applyDecorators(
    htmlPage(403, forbidden),
    htmlPage(413, 'The form is larger than 32 kB'),
    htmlPage(415, 'Not application/x-www-form-urlencoded UTF-8'),
  );
