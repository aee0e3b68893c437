import { Injectable, OnModuleInit } from '@nestjs/common';
import type { ConsoleActor } from '../../session/console-session';
import type { ConfirmationRequest } from './confirmation.dto';
import { ConfirmationTargetRegistry } from './confirmation-target-registry';
import {
  ACTION_TARGET_FIELDS,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './confirmation-actions';
import { ConfirmationStart, PasskeyConfirmations } from './passkey-confirmations.service';
import { PasskeysService } from '../passkeys.service';

/**
 * The target fields `action` needs (their types checked by ConfirmationRequest); other fields
 * are ignored. A change digest is read by the action's registered check (client_settings.update:
 * its `settings`).
 */
function targetOf(
  action: ConfirmationAction,
  request: ConfirmationRequest,
  digest: ((request: ConfirmationRequest) => string) | undefined,
): ConfirmationTarget {
  const target: ConfirmationTarget = {};
  for (const field of ACTION_TARGET_FIELDS[action]) {
    if (field === 'changeDigest') {
      if (!digest) throw new Error(`${action}: its target check reads no change digest`);
      target.changeDigest = digest(request);
    } else {
      (target as Record<string, unknown>)[field] = request[field];
    }
  }
  return target;
}

/**
 * Starting a confirmation answers like the operation itself would: 400 for a missing or
 * mistyped target field, then the check the owner of the target registered (404 for an
 * application without a role or a target that is not there, 403 for a role below what the
 * action needs), then 409 when the user has no passkey. The passkeys' own actions are checked
 * here; the others by the modules that perform them (ConfirmationTargetRegistry).
 */
@Injectable()
export class ConfirmationTargets implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly passkeys: PasskeysService,
    private readonly confirmations: PasskeyConfirmations,
  ) {}

  onModuleInit(): void {
    this.registry.register('passkey.register', { check: () => Promise.resolve() });
    this.registry.register('passkey.remove', {
      check: async (actor: ConsoleActor, target: ConfirmationTarget) => {
        await this.passkeys.get(actor.user.id, target.passkeyId!);
      },
    });
  }

  async begin(actor: ConsoleActor, request: ConfirmationRequest): Promise<ConfirmationStart> {
    const check = this.registry.checkOf(request.action);
    const target = targetOf(request.action, request, check.digest);
    await check.check(actor, target);
    return this.confirmations.begin(actor.user.id, request.action, target);
  }
}
