import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../../config/app-config';
import { browserContext } from '../../sessions/cookies';
import { PageError } from '../../pages/page-error';
import { formOf } from '../../../common/http/params';
import { InteractionService } from './interaction.service';
import { msg } from '../../../common/i18n/i18n';
import { pageLanguageOf } from '../../../common/i18n/page-language';

/**
 * The own checks of POST /oauth2/login/passkey/options, before its per-address quota counts
 * it (the route's guards run in order): an `Origin` header, when sent, must be this service's
 * (a cross-site page cannot start sign-ins from its visitors' browsers), and the form fields must
 * be those of a login page this browser loaded (InteractionService.checkPasskeyStart).
 */
@Injectable()
export class PasskeyOptionsGuard implements CanActivate {
  private readonly secure: boolean;
  private readonly origin: string;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly interaction: InteractionService,
  ) {
    this.secure = config.servesHttps;
    this.origin = config.publicOrigin;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    refuseCrossOrigin(req, this.origin);
    const browser = browserContext(req, this.secure);
    await this.interaction.checkPasskeyStart(formOf(req), pageLanguageOf(req), browser);
    return true;
  }
}

/**
 * An `Origin` header, when sent, must be this service's origin: a cross-site page cannot start
 * passkey sign-ins from its visitors' browsers (a 403 page).
 */
export function refuseCrossOrigin(req: Request, origin: string): void {
  const sent = req.headers.origin;
  if (sent !== undefined && sent !== origin) {
    throw new PageError(403, msg('errors.crossOriginTitle'), msg('errors.crossOrigin'));
  }
}
