import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { checkBackchannelLogoutUri } from '../../applications/backchannel-logout-uri';
import { checkSettings } from '../../applications/application-rules';
import { clientSettingsDigest, parseClientSettings } from '../../applications/client-settings';
import { invalidBody } from '../../../common/validation/request-errors';
import type { ConfirmationRequest } from '../passkeys/confirmations/confirmation.dto';
import { ConfirmationTargetRegistry } from '../passkeys/confirmations/confirmation-target-registry';
import type { ConfirmationTarget } from '../passkeys/confirmations/confirmation-actions';
import { ConsoleAccess } from '../roles/console-access.service';
import type { ConsoleActor } from '../session/console-session';

/**
 * The targets of the confirmations the application routes spend (docs/console.md, "The
 * confirmation exchange"), checked when a confirmation starts as the operation would check
 * them: admin for the client secret and the client settings, owner for deleting the application.
 */
@Injectable()
export class ApplicationConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly access: ConsoleAccess,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const admin = {
      check: (actor: ConsoleActor, target: ConfirmationTarget) => this.admin(actor, target),
    };
    this.registry.register('client_secret.reset', admin);
    this.registry.register('client_settings.update', {
      ...admin,
      digest: (request) => {
        const digest = settingsDigest(request);
        // A logout URI the change would refuse is refused before a passkey is asked for.
        const uri = (request.settings as { backchannelLogoutUri?: unknown }).backchannelLogoutUri;
        if (typeof uri === 'string') {
          checkBackchannelLogoutUri(uri, this.config.webhooksAllowInsecure);
        }
        return digest;
      },
    });
    this.registry.register('application.delete', {
      check: async (actor, target) => {
        await this.access.require(actor, target.applicationId!, 'owner');
      },
    });
  }

  private async admin(actor: ConsoleActor, target: ConfirmationTarget): Promise<void> {
    await this.access.require(actor, target.applicationId!, 'admin');
  }
}

/** client_settings.update: the digest of the settings the PATCH will send (400 when refused). */
function settingsDigest(request: ConfirmationRequest): string {
  const settings = parseClientSettings(request.settings);
  if (!settings) {
    throw invalidBody(
      'client_settings.update needs settings: {redirectUris?, postLogoutRedirectUris?, clientAuthMethod?, jwks?, jwksUri?, backchannelLogoutUri?}',
    );
  }
  checkSettings(settings);
  return clientSettingsDigest(settings);
}
