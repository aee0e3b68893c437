import { layout } from '../../../pages/page-shell';
import { html } from '../../../../common/http/html';
import { BOLD } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';

export interface SelectAccountPageModel {
  applicationName: string;
  username: string;
  requestId: string;
  csrfToken: string;
}

/**
 * prompt=select_account (OIDC Core 3.1.2.1): continue with the signed-in account or use another
 * one (contract: buttons `name="decision"` with values `continue` and `switch`; hidden `request`
 * and `csrf_token`).
 */
export function selectAccountPage(lang: PageLanguage, model: SelectAccountPageModel): string {
  const { t, rich } = lang.translator();
  return layout(
    lang,
    t('selectAccount.title'),
    html`<p>${rich('common.continueTo', { application: model.applicationName }, BOLD)}</p>
      <form method="post" action="/oauth2/select-account">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <button type="submit" name="decision" value="continue">
          ${t('selectAccount.continueAs', { username: model.username })}
        </button>
        <button type="submit" name="decision" value="switch" class="secondary">
          ${t('selectAccount.useAnother')}
        </button>
      </form>`,
  );
}
