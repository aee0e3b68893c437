import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { msg, type Message, type MessageKey } from '../../../common/i18n/i18n';
import { isRecentPrimarySignIn } from '../../sessions/recent-sign-in';
import { LOGIN_REFUSALS, LoginService } from '../../sessions/login.service';
import type { CurrentSession } from '../../sessions/session.service';
import { emailKey, normalEmail } from '../../users/account-names';
import { UsersService } from '../../users/users.service';

/** What a step-up is for, in the refusal that asks to sign in again. */
const STEP_UP_KEYS = {
  password: 'account.password.stepUpSet',
  email: 'account.password.stepUpEmail',
} as const satisfies Record<string, MessageKey>;

export type StepUpPurpose = keyof typeof STEP_UP_KEYS;

/** The words of each refusal of LoginService's password check (same status as LOGIN_REFUSALS). */
const REFUSAL_KEYS: Record<keyof typeof LOGIN_REFUSALS, MessageKey> = {
  failed: 'account.password.incorrect',
  throttled: 'login.refused.throttled',
  busy: 'login.refused.busy',
};

/** How the signed-in user steps up: the current password, or a recent sign-in (still open?). */
export type StepUpMethod = { kind: 'password' } | { kind: 'recent_sign_in'; open: boolean };

/** A step-up that is not satisfied: the status and message of the page that refuses. */
export interface StepUpRefusal {
  status: number;
  message: Message;
  retryAfterSeconds?: number;
  /** Only a new sign-in satisfies it (an account without a password, past the 5 minutes). */
  signInAgain: boolean;
}

/**
 * The step-up of a change that adds a way into an account or replaces its password
 * (docs/accounts.md, "Step-up"): the current password, checked like a sign-in (a wrong one
 * counts toward the sign-in limits); for an account without one, a password or upstream sign-in
 * within the last 5 minutes (the rule of a first passkey, console/passkeys/recent-sign-in.ts).
 * The one place that decides it for the account page and for the email verification step of an
 * authorization.
 */
@Injectable()
export class StepUp {
  constructor(
    private readonly login: LoginService,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** How `current` steps up, for the form that asks for it. */
  method({ user, session }: CurrentSession): StepUpMethod {
    if (user.passwordHash) return { kind: 'password' };
    const open = isRecentPrimarySignIn(
      { authMethod: session.authMethod, signedInAt: session.createdAt },
      this.clock.now(),
    );
    return { kind: 'recent_sign_in', open };
  }

  /** Null when the step-up for `purpose` is satisfied, else the refusal to show. */
  async check(
    current: CurrentSession,
    currentPassword: unknown,
    clientAddress: string,
    purpose: StepUpPurpose,
  ): Promise<StepUpRefusal | null> {
    const method = this.method(current);
    if (method.kind === 'recent_sign_in') {
      if (method.open) return null;
      return { status: 403, message: msg(STEP_UP_KEYS[purpose]), signInAgain: true };
    }
    const password = typeof currentPassword === 'string' ? currentPassword : '';
    const check = await this.login.checkPassword(current.user, password, clientAddress);
    if (check.kind === 'ok') return null;
    const [status] = LOGIN_REFUSALS[check.kind];
    const refusal = { status, message: msg(REFUSAL_KEYS[check.kind]), signInAgain: false };
    return check.kind === 'failed'
      ? refusal
      : { ...refusal, retryAfterSeconds: check.retryAfterSeconds };
  }

  /**
   * Before a code is sent to a typed address: adding an address that is not one of the user's
   * yet (a new way into the account, through a password reset) needs the step-up; verifying one
   * the account already lists does not. Null when the code may be sent.
   */
  async forAddress(
    current: CurrentSession,
    typedEmail: string,
    currentPassword: unknown,
    clientAddress: string,
  ): Promise<StepUpRefusal | null> {
    if (!(await this.isNewAddress(current, typedEmail))) return null;
    return this.check(current, currentPassword, clientAddress, 'email');
  }

  /** Not an address (refused before anything is sent, so no step-up is asked): false. */
  private async isNewAddress({ user }: CurrentSession, typedEmail: string): Promise<boolean> {
    const key = normalEmail(typedEmail);
    if (key === null) return false;
    const mine = await this.users.emailsOf(user);
    return !mine.some((row) => emailKey(row.email) === key);
  }
}
