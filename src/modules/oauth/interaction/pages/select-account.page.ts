import { html, layout } from '../../../../common/http/html';

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
export function selectAccountPage(model: SelectAccountPageModel): string {
  return layout(
    'Choose an account',
    html`<p>to continue to <strong>${model.applicationName}</strong></p>
      <form method="post" action="/oauth2/select-account">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <button type="submit" name="decision" value="continue">
          Continue as ${model.username}
        </button>
        <button type="submit" name="decision" value="switch" class="secondary">
          Use another account
        </button>
      </form>`,
  );
}
