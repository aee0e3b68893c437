import { Injectable } from '@nestjs/common';
import { formText, type Params, jsonField } from '../../../common/http/params';
import { msg, type MessageKey, type Text } from '../../../common/i18n/i18n';
import type { PasskeyCeremonyStart } from '../../passkeys/passkey-view';
import { PasskeySignInService } from '../../passkeys/sign-in/passkey-sign-in.service';
import { LOGIN_REFUSALS, LoginService } from '../../sessions/login.service';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import type { User } from '../../users/user.entity';

/** What a sign-in form's answer came to: the person, or the refusal the form shows again. */
export type SignInAttempt =
  | { kind: 'signed-in'; user: User; method: SessionAuthMethod }
  | {
      kind: 'refused';
      /** 401, or 429/503 for a throttled or busy password check (LOGIN_REFUSALS). */
      status: number;
      /** The form's words for the refusal, in the page's language. */
      message: Text;
      /** Retry-After of a 429 or 503. */
      retryAfterSeconds?: number;
      /** The username typed, shown again in the form. */
      username?: string;
    };

/** The sign-in form's words for each refusal of LoginService (same status as LOGIN_REFUSALS). */
const REFUSAL_KEYS: Record<keyof typeof LOGIN_REFUSALS, MessageKey> = {
  failed: 'login.refused.failed',
  throttled: 'login.refused.throttled',
  busy: 'login.refused.busy',
};

/**
 * The sign-in methods of this service's own accounts, written once for every page that signs a
 * person in: the login page of an authorization (/oauth2/login) and the account page's sign-in
 * (/account/login). The page checks its own form (CSRF, what its request offers) and decides what
 * follows a sign-in; this decides who signed in, or which refusal the form shows.
 */
@Injectable()
export class SignInMethods {
  constructor(
    private readonly login: LoginService,
    private readonly passkeys: PasskeySignInService,
  ) {}

  /**
   * The password form (`username`, `password`): LoginService's throttled, queued check, with one
   * message for an unknown user and a wrong password.
   */
  async password(form: Params, clientIp: string): Promise<SignInAttempt> {
    const username = formText(form.username);
    const outcome = await this.login.authenticate(username, formText(form.password), clientIp);
    if (outcome.kind === 'ok') return { kind: 'signed-in', user: outcome.user, method: 'password' };
    return {
      kind: 'refused',
      status: LOGIN_REFUSALS[outcome.kind][0],
      message: msg(REFUSAL_KEYS[outcome.kind]),
      retryAfterSeconds: outcome.kind === 'failed' ? undefined : outcome.retryAfterSeconds,
      username,
    };
  }

  /** A discoverable passkey sign-in's options (the form's first step, after the page's checks). */
  passkeyOptions(): Promise<PasskeyCeremonyStart> {
    return this.passkeys.options();
  }

  /**
   * The passkey form (`ceremony_id`, `assertion`): one 401 message for every cause of failure
   * (an unknown or spent ceremony, a wrong signature, a disabled account). `httpRequestId` is this
   * HTTP request's id, for the log line of a refused assertion.
   */
  async passkey(form: Params, httpRequestId: string): Promise<SignInAttempt> {
    const userId = await this.passkeys.verify(
      form.ceremony_id,
      jsonField(form.assertion),
      httpRequestId,
    );
    const user = userId === null ? null : await this.login.signedInWithoutPassword(userId);
    if (!user) return { kind: 'refused', status: 401, message: msg('passkey.failed') };
    return { kind: 'signed-in', user, method: 'passkey' };
  }
}
