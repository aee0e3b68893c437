import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { pageLanguageOf, type PageLanguage } from './page-language';

/**
 * A page route's language (page-language.ts), for the handler to hand to what renders its page
 * or chooses its email's language. English without a switcher on a route without the middleware.
 */
export const PageLang = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): PageLanguage =>
    pageLanguageOf(ctx.switchToHttp().getRequest<Request>()),
);
