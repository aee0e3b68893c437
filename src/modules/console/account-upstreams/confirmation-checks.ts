import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfirmationTargetRegistry } from '../passkeys/confirmations/confirmation-target-registry';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';

/**
 * The targets of the account's upstream confirmations (docs/console.md, "The confirmation
 * exchange"): upstream.unbind names one of the user's own bindings, upstream.bind a provider.
 */
@Injectable()
export class UpstreamConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly identities: UpstreamIdentitiesService,
    private readonly providers: UpstreamProvidersService,
  ) {}

  onModuleInit(): void {
    this.registry.register('upstream.unbind', {
      check: async (actor, target) => {
        const mine = await this.identities.listForUser(actor.user.id);
        if (!mine.some((identity) => identity.id === target.upstreamIdentityId)) {
          throw new AppError(ErrorCode.NotFound, 'No such upstream binding');
        }
      },
    });
    this.registry.register('upstream.bind', {
      check: async (_actor, target) => {
        if (!(await this.providers.find(target.providerId!))) {
          throw new AppError(ErrorCode.NotFound, 'No such upstream provider');
        }
      },
    });
  }
}
