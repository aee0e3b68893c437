import { Injectable } from '@nestjs/common';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { Metrics } from '../../../common/metrics/metrics';
import { PasskeyAssertions } from '../passkey-assertions';
import { PasskeyCeremonies, PROMPT_TIMEOUT_MS } from '../passkey-ceremonies';
import type { PasskeyCeremonyStart } from '../passkey-view';
import { RelyingParty } from '../relying-party';

/**
 * Passkey sign-in starts (each a passkey_ceremonies row) allowed per client address per
 * 15 minutes (docs/security.md, "Anonymous requests that keep state"): the limit of the
 * 'passkey-sign-in' throttler, one bucket per address shared by every route that starts a
 * passkey sign-in (the console's and the OAuth login page's).
 */
/**
 * What a sign-in page says for every passkey sign-in that does not verify, whatever check failed
 * (the reason goes to the log only; docs/security.md).
 */
export const PASSKEY_SIGN_IN_FAILED = 'That passkey could not be used to sign in.';

export const SIGN_IN_STARTS_PER_ADDRESS = 60;

/**
 * Discoverable-credential sign-in with a passkey, the one implementation behind every sign-in
 * route that accepts passkeys (the console's JSON routes and the OAuth login page): the options
 * with their single-use challenge, then the verification of the answer.
 */
@Injectable()
export class PasskeySignInService {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly assertions: PasskeyAssertions,
    private readonly rp: RelyingParty,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Request options with no allowCredentials: the authenticator offers its own passkeys.
   * Anyone may ask and each answer stores a challenge, so the routes have a per-address quota
   * (SIGN_IN_STARTS_PER_ADDRESS, counted by the rate limiter before this runs).
   */
  async options(): Promise<PasskeyCeremonyStart> {
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: PROMPT_TIMEOUT_MS,
    });
    const ceremony = await this.ceremonies.start({
      purpose: 'sign_in',
      userId: null,
      challenge: options.challenge,
    });
    return { ceremonyId: ceremony.id, options };
  }

  /**
   * The id of the user whose passkey answered the challenge of sign-in ceremony `ceremonyId`,
   * or null: the ceremony is spent either way, and callers refuse without saying which check
   * failed (the reason is logged by PasskeyAssertions, with `requestId`, the HTTP request's id).
   */
  async verify(ceremonyId: unknown, response: unknown, requestId: string): Promise<string | null> {
    const ceremony = await this.ceremonies.take(ceremonyId, 'sign_in', null);
    const credential = ceremony
      ? await this.assertions.verify(ceremony.challenge, response, null, requestId)
      : null;
    this.metrics.login('passkey', credential ? 'success' : 'invalid_passkey');
    return credential?.userId ?? null;
  }
}
