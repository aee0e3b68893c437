import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { ConsoleActor } from '../../session/console-session';
import type { ConfirmationRequest } from './confirmation.dto';
import {
  CONFIRMATION_ACTIONS,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './confirmation-actions';

/**
 * What the module that performs a confirmed operation says about its targets, so that starting
 * a confirmation answers like the operation would (docs/console.md, "The confirmation
 * exchange"). The passkeys module knows the actions and their target fields; the checks belong
 * to the modules that own the targets, which register them here.
 */
export interface ConfirmationTargetCheck {
  /**
   * The `changeDigest` of the change named in the body (client_settings.update's `settings`):
   * 400 when it is missing or refused. Needed by actions bound to a change digest.
   */
  digest?: (request: ConfirmationRequest) => string;
  /**
   * Role and existence of the target, after the fields are read: 404 / 403 / 409 as the
   * operation would answer. May rewrite a field to the canonical form the operation binds.
   */
  check: (actor: ConsoleActor, target: ConfirmationTarget) => Promise<void>;
}

/**
 * The target check of every confirmation action. Modules register theirs in `onModuleInit`
 * (they import PasskeysModule, never the reverse); the service refuses to boot while an action
 * has none, and an unregistered action is never confirmed.
 */
@Injectable()
export class ConfirmationTargetRegistry implements OnApplicationBootstrap {
  private readonly checks = new Map<ConfirmationAction, ConfirmationTargetCheck>();

  register(action: ConfirmationAction, check: ConfirmationTargetCheck): void {
    if (this.checks.has(action)) throw new Error(`${action}: target check registered twice`);
    this.checks.set(action, check);
  }

  /** The check of `action`; throws (500) when none is registered. */
  checkOf(action: ConfirmationAction): ConfirmationTargetCheck {
    const check = this.checks.get(action);
    if (!check) throw new Error(`${action}: no target check registered`);
    return check;
  }

  onApplicationBootstrap(): void {
    const missing = CONFIRMATION_ACTIONS.filter((action) => !this.checks.has(action));
    if (missing.length > 0) {
      throw new Error(`Confirmation actions without a target check: ${missing.join(', ')}`);
    }
  }
}
