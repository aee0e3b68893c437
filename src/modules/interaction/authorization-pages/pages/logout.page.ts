import { layout } from '../../../pages/page-shell';
import { html } from '../../../../common/http/html';
import type { PageLanguage } from '../../../../common/i18n/page-language';

/**
 * The sign-out confirmation (contract: hidden `csrf_token`, POST /oauth2/logout); with an
 * RP-initiated request, also the sealed `logout_request` that names where to go afterwards.
 */
export function logoutPage(lang: PageLanguage, csrfToken: string, sealedRequest?: string): string {
  const { t } = lang.translator();
  const request =
    sealedRequest === undefined
      ? html``
      : html`<input type="hidden" name="logout_request" value="${sealedRequest}" />`;
  // The language the end-session request's ui_locales chose goes on to the "Signed out" page.
  const locale = lang.requestLocale;
  const uiLocales =
    locale === undefined
      ? html``
      : html`<input type="hidden" name="ui_locales" value="${locale}" />`;
  return layout(
    lang,
    t('logout.title'),
    html`<p>${t('logout.question')}</p>
      <form method="post" action="/oauth2/logout">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        ${request} ${uiLocales}
        <button type="submit">${t('logout.submit')}</button>
      </form>`,
  );
}

/**
 * "Signed out", with a link back to the application when a relying party asked to return
 * (RP-Initiated Logout 1.0 section 3) but the end-session endpoint does not redirect by itself:
 * the visitor chooses to follow it, so the endpoint is no redirector for whoever sends a link.
 */
export function signedOutPage(
  lang: PageLanguage,
  link?: { redirectTo: string; applicationName?: string },
): string {
  const { t } = lang.translator();
  const back =
    link?.applicationName === undefined
      ? t('logout.returnToTheApplication')
      : t('logout.returnTo', { application: link.applicationName });
  const backLink =
    link === undefined
      ? html``
      : html`<p>
          <a href="${link.redirectTo}">${back}</a>
        </p>`;
  return layout(
    lang,
    t('logout.signedOutTitle'),
    html`<p>${t('logout.signedOut')}</p>
      ${backLink}`,
  );
}
