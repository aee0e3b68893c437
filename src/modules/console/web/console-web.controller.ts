import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../../common/http/public.decorator';
import { messagePage } from '../../pages/page-shell';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { positiveIntId } from '../../../common/validation/path-ids';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { accountPage } from './pages/account.page';
import { applicationPage } from './pages/application.page';
import { homePage } from './pages/home.page';
import { FORMATTER_FILE, FORMATTER_NAME } from '../../pages/script-messages';

/**
 * The browser scripts and stylesheet (and the message formatter, from its package). They sit beside this file as plain JS/CSS, so the tests
 * (run from src/) serve them as they are; `npm run build` copies the folder into dist/.
 */
const ASSETS_DIR = join(__dirname, 'assets');
const ASSETS = new Set(readdirSync(ASSETS_DIR).filter((name) => /^[a-z-]+\.(js|css)$/.test(name)));

/**
 * Every console page: never cached (the pages show secrets once), never framed, no referrer,
 * and a CSP that allows only this origin's own script, styles and API calls; no inline script.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; " +
  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The console's pages: server-rendered shells that the browser script fills through
 * /api/console. @Public() lets them past the API-key guard; the JSON API they call checks the
 * session, so a shell reveals nothing without one.
 */
@Public()
@ApiExcludeController()
@Controller('console')
export class ConsoleWebController {
  constructor(private readonly providers: UpstreamProvidersService) {}

  @Get()
  home(@PageLang() lang: PageLanguage, @Res() res: Response): void {
    sendPage(res, 200, homePage(lang));
  }

  @Get('account')
  async account(@PageLang() lang: PageLanguage, @Res() res: Response): Promise<void> {
    // Ids and display names only (public: the login page shows them too), for the Connect buttons.
    const providers = (await this.providers.listEnabled()).map(({ id, displayName }) => ({
      id,
      displayName,
    }));
    sendPage(res, 200, accountPage(lang, providers));
  }

  @Get('applications/:id')
  application(@Param('id') id: string, @PageLang() lang: PageLanguage, @Res() res: Response): void {
    const applicationId = positiveIntId(id);
    if (applicationId === null) {
      const { t } = lang.translator();
      const title = t('console.layout.notFound');
      sendPage(res, 404, messagePage(lang, title, t('console.layout.noSuchApplication')));
      return;
    }
    sendPage(res, 200, applicationPage(lang, applicationId));
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (file === FORMATTER_NAME) {
      // The message formatter: its URL names its version, so it never changes.
      res.sendFile(FORMATTER_FILE, {
        headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
      });
      return;
    }
    if (!ASSETS.has(file)) throw new NotFoundException();
    // Revalidated on every load (ETag), so a new version of the script applies at once.
    res.sendFile(file, { root: ASSETS_DIR, headers: { 'Cache-Control': 'no-cache' } });
  }
}

function sendPage(res: Response, status: number, page: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.status(status).type('html').send(page);
}
