import { PageError } from '../../pages/page-error';
import { layout } from '../../pages/page-shell';
import { html } from '../../../common/http/html';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

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

/** The clear page each failure of an upstream sign-in ends on (docs/upstreams.md, "Errors"). */
export function upstreamFailure(failure: UpstreamFailure, providerName?: string): PageError {
  // The provider's name where known, else the page's words for "the provider".
  const provider = providerName ?? msg('upstream.theProvider');
  switch (failure) {
    case 'bound_elsewhere':
      return new PageError(
        409,
        msg('upstream.failure.boundElsewhereTitle'),
        msg('upstream.failure.boundElsewhere', { provider }),
      );
    case 'denied':
      return new PageError(
        403,
        msg('upstream.failure.deniedTitle'),
        msg('upstream.failure.denied'),
      );
    case 'invalid_response':
      return new PageError(
        502,
        msg('upstream.failure.failedTitle'),
        msg('upstream.failure.invalidResponse'),
      );
    case 'unavailable':
      return new PageError(
        503,
        msg('upstream.failure.unavailableTitle'),
        msg('upstream.failure.unavailable'),
      );
    case 'invalid_state':
      return new PageError(
        400,
        msg('upstream.failure.failedTitle'),
        msg('upstream.failure.invalidState'),
      );
    case 'replayed':
      return new PageError(
        400,
        msg('upstream.failure.replayedTitle'),
        msg('upstream.failure.replayed'),
      );
    case 'no_attempt':
      return new PageError(
        400,
        msg('upstream.failure.noAttemptTitle'),
        msg('upstream.failure.noAttempt'),
      );
    case 'not_offered':
      return new PageError(
        403,
        msg('upstream.failure.notOfferedTitle'),
        msg('upstream.failure.notOffered'),
      );
    case 'email_taken':
      return new PageError(
        409,
        msg('upstream.failure.emailTakenTitle'),
        msg('upstream.failure.emailTaken', { provider }),
      );
  }
}

/**
 * The answer to the bind-upstream form: a page that moves on to the provider, not a redirect.
 * The form's page allows only 'self' as CSP form-action, which browsers also apply to the
 * redirects that follow a form submission, so a 302 to the provider would be blocked.
 */
export function continueToProviderPage(lang: PageLanguage, location: string): string {
  const { t } = lang.translator();
  return layout(
    lang,
    t('upstream.continueTitle'),
    html`<meta http-equiv="refresh" content="0;url=${location}" />
      <p><a class="button" href="${location}">${t('common.continue')}</a></p>`,
  );
}
