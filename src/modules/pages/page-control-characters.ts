import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { msg } from '../../common/i18n/i18n';
import { pageLanguageOf } from '../../common/i18n/page-language';
import { holdsControlCharacter } from '../../common/validation/control-characters';
import { sendErrorPage } from './page-exception.filter';

const logger = new Logger('RequestBody');

/**
 * The browser pages' one check of what a visitor typed or a link carried (mounted after the page
 * language, app.setup.ts): a control character (NUL and the others of
 * common/validation/control-characters.ts) in any name or value of the query string or of the
 * form is a 400 page in the page's language, before any page reads a parameter. No page field
 * takes one, and PostgreSQL refuses NUL in text: without this, `%00` in a sign-in's username was
 * a 500. Logged once at warn, like a refused body.
 */
export function pageControlCharacters(secure: boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const form = typeof req.body === 'object' && req.body !== null ? (req.body as unknown) : {};
    if (!holdsControlCharacter(req.query) && !holdsControlCharacter(form)) return next();
    logger.warn(
      {
        requestId: (req as Request & { id?: unknown }).id,
        route: `${req.method} ${req.originalUrl.split('?')[0]}`,
        failure: 'control_character',
      },
      'Request refused',
    );
    const title = msg('errors.invalidRequestTitle');
    const page = { status: 400, title, message: msg('errors.controlCharacter') };
    sendErrorPage(res, pageLanguageOf(req), page, secure);
  };
}
