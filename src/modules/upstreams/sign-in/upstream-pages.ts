import { PageError } from '../../oauth/protocol/oauth-error';
import { html, layout } from '../../../common/http/html';

export type UpstreamFailure =
  | 'denied'
  | 'invalid_response'
  | 'unavailable'
  | 'invalid_state'
  | 'replayed'
  | 'no_attempt'
  | 'not_offered'
  | 'email_taken'
  | 'bound_elsewhere';

const AGAIN = 'Return to the application and start again.';

/** The clear page each failure of an upstream sign-in ends on (docs/upstreams.md, "Errors"). */
export function upstreamFailure(
  failure: UpstreamFailure,
  providerName = 'the provider',
): PageError {
  switch (failure) {
    case 'bound_elsewhere':
      return new PageError(
        409,
        'Already bound to another account',
        `This ${providerName} account is bound to another account here. Sign in to that account to unbind it first.`,
      );
    case 'denied':
      return new PageError(
        403,
        'Sign-in cancelled',
        `Sign-in at the provider was cancelled or refused. ${AGAIN}`,
      );
    case 'invalid_response':
      return new PageError(
        502,
        'Sign-in failed',
        `The provider's answer could not be verified. ${AGAIN}`,
      );
    case 'unavailable':
      return new PageError(
        503,
        'Provider unavailable',
        `The provider did not answer in time. Try again in a moment.`,
      );
    case 'invalid_state':
      return new PageError(
        400,
        'Sign-in failed',
        `This answer does not belong to the sign-in started in this browser. ${AGAIN}`,
      );
    case 'replayed':
      return new PageError(
        400,
        'Sign-in already used',
        `This sign-in answer was already used. ${AGAIN}`,
      );
    case 'no_attempt':
      return new PageError(
        400,
        'Sign-in expired',
        `No sign-in with this provider is in progress in this browser, or it has expired. ${AGAIN}`,
      );
    case 'not_offered':
      return new PageError(
        403,
        'Sign-in method not offered',
        `This application does not offer this sign-in method. ${AGAIN}`,
      );
    case 'email_taken':
      return new PageError(
        409,
        'Account already exists',
        `An account with the email address of your ${providerName} account already exists. Sign in to that account, then bind ${providerName} from its account page.`,
      );
  }
}

/**
 * The answer to the bind-upstream form: a page that moves on to the provider, not a redirect.
 * The form's page allows only 'self' as CSP form-action, which browsers also apply to the
 * redirects that follow a form submission, so a 302 to the provider would be blocked.
 */
export function continueToProviderPage(location: string): string {
  return layout(
    'Continue to the provider',
    html`<meta http-equiv="refresh" content="0;url=${location}" />
      <p><a class="button" href="${location}">Continue</a></p>`,
  );
}
