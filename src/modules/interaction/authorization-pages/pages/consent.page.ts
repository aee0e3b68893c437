import { splitScope, type OAuthScope } from '../../../oauth/protocol/scopes';
import { layout } from '../../../pages/page-shell';
import { html } from '../../../../common/http/html';
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

/** The consent form (contract: buttons `name="decision"` with values `approve` and `deny`). */
export function consentPage(lang: PageLanguage, model: ConsentPageModel): string {
  const { t, rich } = lang.translator();
  const logo = safeLogo(model.logo);
  const scopes = splitScope(model.scope).map(
    (scope) =>
      html`<li>
        ${rich('consent.scopeLine', { scope, meaning: t(SCOPE_KEYS[scope as OAuthScope]) }, CODE)}
      </li>`,
  );
  return layout(
    lang,
    t('consent.title'),
    html`${logo ? html`<img class="logo" src="${logo}" alt="" />` : html``}
      <p>
        ${rich(
          'consent.lead',
          { application: model.applicationName, username: model.username },
          BOLD,
        )}
      </p>
      <ul>
        ${scopes}
      </ul>
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
