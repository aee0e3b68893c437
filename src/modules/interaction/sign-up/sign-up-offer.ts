import { Inject, Injectable } from '@nestjs/common';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { AppConfig } from '../../../config/app-config';
import { offeredSignIn } from '../../oauth/authorize/checks/upstream-providers';
import { PageError } from '../../pages/page-error';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { PendingInteractions, type Interaction } from '../pending-interactions';
import { signUpOffered } from './sign-up-offered';

/**
 * The authorization request a sign-up page belongs to, when sign-up is offered for it
 * (sign-up-offered.ts); a 404 page otherwise.
 */
@Injectable()
export class SignUpOffer {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly interactions: PendingInteractions,
    private readonly upstreamProviders: UpstreamProvidersService,
  ) {}

  /** The form's request: live and offering sign-up; a 404 page otherwise. */
  async offered(requestId: unknown, lang: PageLanguage): Promise<Interaction> {
    if (!this.config.signUpEnabled) throw notOffered();
    const interaction = await this.interactions.find(requestId, lang);
    await this.checkOffered(interaction);
    return interaction;
  }

  /**
   * The code pages' request: live and offering sign-up (404 otherwise), or null once it expired
   * or was answered, since a code sent while it was live still creates the account.
   */
  async offeredOrExpired(requestId: unknown, lang: PageLanguage): Promise<Interaction | null> {
    if (!this.config.signUpEnabled) throw notOffered();
    const interaction = await this.interactions.findLive(requestId, lang);
    if (interaction) await this.checkOffered(interaction);
    return interaction;
  }

  private async checkOffered(interaction: Interaction): Promise<void> {
    if (!this.config.signUpEnabled) throw notOffered();
    const enabled = await this.upstreamProviders.listEnabled();
    const password = offeredSignIn(interaction.pending.request.upstreamProviders, enabled).password;
    if (!signUpOffered(this.config, interaction.application, password)) throw notOffered();
  }
}

function notOffered(): PageError {
  return new PageError(404, msg('errors.notFoundTitle'), msg('signUp.notOffered'));
}
