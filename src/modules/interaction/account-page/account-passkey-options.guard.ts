import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../../config/app-config';
import { refuseCrossOrigin } from '../authorization-pages/passkey-options.guard';
import { formOf } from '../../../common/http/params';
import { browserContext } from '../../sessions/cookies';
import { AccountSignInService } from './account-sign-in.service';

/**
 * The own checks of POST /account/login/passkey/options, before its per-address quota counts
 * it (the route's guards run in order): a same-origin `Origin` when one is sent, and the CSRF
 * token of the sign-in page this browser loaded. What they refuse is not counted.
 */
@Injectable()
export class AccountPasskeyOptionsGuard implements CanActivate {
  private readonly secure: boolean;
  private readonly origin: string;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly signIn: AccountSignInService,
  ) {
    this.secure = config.servesHttps;
    this.origin = config.publicOrigin;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    refuseCrossOrigin(req, this.origin);
    this.signIn.checkPasskeyStart(formOf(req), browserContext(req, this.secure));
    return true;
  }
}
