import { splitScope, type OAuthScope } from '../../../oauth/protocol/scopes';
import { layout } from '../../../pages/page-shell';
import { html, type Html } from '../../../../common/http/html';
import { BOLD, CODE, type MessageKey } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';

export interface ConsentPageModel {
  applicationName: string;
  logo: string;
  username: string;
  scope: string;
  requestId: string;
  csrfToken: string;
}

/** What each scope lets the application do, in the page's words (protocol/scopes.ts). */
export const SCOPE_KEYS: Record<OAuthScope, MessageKey> = {
  openid: 'scopes.openid',
  read: 'scopes.read',
  profile: 'scopes.profile',
  email: 'scopes.email',
};

/** Only absolute http(s) logos are shown; anything else (javascript:, data:) is dropped. */
export function safeLogo(logo: string): string | null {
  return /^https?:\/\//i.test(logo) && URL.canParse(logo) ? logo : null;
}

/** What an application asks of an account, as the consent and the device confirmation show it. */
export interface ApplicationAsk {
  applicationName: string;
  logo: string;
  username: string;
  scope: string;
}

/**
 * The application's logo (when safe), the lead naming it and the account (`lead`: the page's own
 * sentence), and one line per scope saying what it lets the application do.
 */
export function applicationAsks(lang: PageLanguage, lead: MessageKey, ask: ApplicationAsk): Html {
  const { t, rich } = lang.translator();
  const logo = safeLogo(ask.logo);
  const scopes = splitScope(ask.scope).map(
    (scope) =>
      html`<li>
        ${rich('consent.scopeLine', { scope, meaning: t(SCOPE_KEYS[scope as OAuthScope]) }, CODE)}
      </li>`,
  );
  return html`${logo ? html`<img class="logo" src="${logo}" alt="" />` : html``}
    <p>${rich(lead, { application: ask.applicationName, username: ask.username }, BOLD)}</p>
    <ul>
      ${scopes}
    </ul>`;
}

/** The consent form (contract: buttons `name="decision"` with values `approve` and `deny`). */
export function consentPage(lang: PageLanguage, model: ConsentPageModel): string {
  const { t } = lang.translator();
  return layout(
    lang,
    t('consent.title'),
    html`${applicationAsks(lang, 'consent.lead', model)}
      <form method="post" action="/oauth2/consent">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <button type="submit" name="decision" value="approve">${t('consent.approve')}</button>
        <button type="submit" name="decision" value="deny" class="secondary">
          ${t('consent.deny')}
        </button>
      </form>`,
  );
}
