import { Controller, Get, Inject, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { Public } from '../keys/auth.decorators';
import { LogoutService } from './logout.service';
import { PageExceptionFilter } from './page-exception.filter';
import { browserContext, sendPage } from './page-result';
import { ShowLogoutDocs } from './pages.openapi';

/**
 * GET /api/oidc/logout: the original service's end-session path, answered by the handler of
 * GET /oauth2/logout (docs/oidc.md, "Logout (RP-initiated)"). Its form posts to /oauth2/logout.
 */
@ApiTags('OpenID Connect aliases')
@Public()
@Controller('api/oidc')
@UseFilters(PageExceptionFilter)
export class EndSessionAliasController {
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly logoutService: LogoutService,
  ) {
    this.secure = config.publicBaseUrl.startsWith('https://');
  }

  @Get('logout')
  @ShowLogoutDocs()
  @ApiOperation({ summary: 'Alias of GET /oauth2/logout (the original service’s path)' })
  async showLogoutAlias(@Req() req: Request, @Res() res: Response): Promise<void> {
    const result = await this.logoutService.show(req.query, browserContext(req, this.secure));
    sendPage(res, result, this.secure);
  }
}
