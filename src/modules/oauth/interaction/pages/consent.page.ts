import { SCOPE_DESCRIPTIONS, splitScope, type OAuthScope } from '../../protocol/scopes';
import { html, layout } from '../../../../common/http/html';

export interface ConsentPageModel {
  applicationName: string;
  logo: string;
  username: string;
  scope: string;
  requestId: string;
  csrfToken: string;
}

/** Only absolute http(s) logos are shown; anything else (javascript:, data:) is dropped. */
export function safeLogo(logo: string): string | null {
  return /^https?:\/\//i.test(logo) && URL.canParse(logo) ? logo : null;
}

/** The consent form (contract: buttons `name="decision"` with values `approve` and `deny`). */
export function consentPage(model: ConsentPageModel): string {
  const logo = safeLogo(model.logo);
  const scopes = splitScope(model.scope).map(
    (scope) => html`<li><code>${scope}</code>: ${SCOPE_DESCRIPTIONS[scope as OAuthScope]}</li>`,
  );
  return layout(
    'Authorize access',
    html`${logo ? html`<img class="logo" src="${logo}" alt="" />` : html``}
      <p>
        <strong>${model.applicationName}</strong> wants to access your account
        <strong>${model.username}</strong>:
      </p>
      <ul>
        ${scopes}
      </ul>
      <form method="post" action="/oauth2/consent">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <button type="submit" name="decision" value="approve">Approve</button>
        <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
      </form>`,
  );
}
