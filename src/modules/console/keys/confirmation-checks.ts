import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiKeysService } from '../../keys/api-keys.service';
import { keyNotFound } from '../../keys/keys.errors';
import { ConfirmationTargetRegistry } from '../passkeys/confirmations/confirmation-target-registry';
import type { ConfirmationTarget } from '../passkeys/confirmations/confirmation-actions';
import { ConsoleAccess } from '../roles/console-access.service';
import type { ConsoleActor } from '../session/console-session';

/**
 * The targets of the key confirmations (docs/console.md, "The confirmation exchange"), checked
 * when a confirmation starts as the operation would check them: admin, and for key.rotate,
 * key.revoke and key.delete a key of the application.
 */
@Injectable()
export class KeyConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly access: ConsoleAccess,
    private readonly keys: ApiKeysService,
  ) {}

  onModuleInit(): void {
    this.registry.register('key.create', {
      check: async (actor, target) => {
        await this.access.require(actor, target.applicationId!, 'admin');
      },
    });
    const key = {
      check: (actor: ConsoleActor, target: ConfirmationTarget) => this.key(actor, target),
    };
    this.registry.register('key.rotate', key);
    this.registry.register('key.revoke', key);
    this.registry.register('key.delete', key);
  }

  /** key.rotate, key.revoke, key.delete: the key must be one of the application's. */
  private async key(actor: ConsoleActor, target: ConfirmationTarget): Promise<void> {
    await this.access.require(actor, target.applicationId!, 'admin');
    const keys = await this.keys.list(target.applicationId!);
    if (!keys.some((key) => key.id === target.keyId)) throw keyNotFound();
  }
}
