import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pageLanguage } from '../../common/i18n/page-language';
import { browserContext, type BrowserContext } from '../sessions/cookies';
import { pageControlCharacters } from './page-control-characters';
import { sendPage, type PageResult } from './page-result';

/**
 * Whether each page request is served over https (the deployment's PUBLIC_BASE_URL): cookie
 * names and flags depend on it. A WeakMap keyed by the request, as the page language is.
 */
const httpsOf = new WeakMap<Request, boolean>();

/**
 * The middleware of every path that serves pages (app.setup.ts, PAGE_PATHS), in order: cookies,
 * the page's language, what the page routes read of the deployment, then the one check of
 * control characters (a 400 page before any page reads a parameter).
 */
export function pageRequests(secure: boolean): RequestHandler[] {
  const remember = (req: Request, _res: Response, next: NextFunction): void => {
    httpsOf.set(req, secure);
    next();
  };
  return [cookieParser(), pageLanguage, remember, pageControlCharacters(secure)];
}

function servesHttps(req: Request): boolean {
  const secure = httpsOf.get(req);
  if (secure === undefined) {
    throw new Error(`${req.path} is a page route outside PAGE_PATHS (app.setup.ts)`);
  }
  return secure;
}

/**
 * A page route's browser: its address, user agent and this service's cookies (sessions/cookies.ts).
 * With `replyWithPage`, what every page controller uses instead of reading cookies or the
 * deployment itself.
 */
export const Browser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): BrowserContext => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return browserContext(req, servesHttps(req));
  },
);

/** Writes a page route's answer with the headers of every page (sendPage). */
export function replyWithPage(res: Response, result: PageResult): void {
  sendPage(res, result, servesHttps(res.req));
}
