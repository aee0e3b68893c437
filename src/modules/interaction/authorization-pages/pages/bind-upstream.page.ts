import { layout } from '../../../pages/page-shell';
import { html, Html } from '../../../../common/http/html';
import { BOLD } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';

export interface BindUpstreamPageModel {
  applicationName: string;
  username: string;
  requestId: string;
  csrfToken: string;
  /** One form per required, enabled provider (POST, so no other site can start a binding). */
  providers: { displayName: string; action: string }[];
}

/** Required upstream: the application needs an upstream account bound to this user first. */
export function bindUpstreamPage(lang: PageLanguage, model: BindUpstreamPageModel): string {
  const { t, rich } = lang.translator();
  const forms: Html[] = model.providers.map(
    (provider) =>
      html`<li>
        <form method="post" action="${provider.action}">
          <input type="hidden" name="request" value="${model.requestId}" />
          <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
          <button type="submit" class="secondary">
            ${t('bindUpstream.bind', { provider: provider.displayName })}
          </button>
        </form>
      </li>`,
  );
  const body =
    forms.length > 0
      ? html`<p>${t('bindUpstream.choose')}</p>
          <ul class="providers">
            ${forms}
          </ul>`
      : html`<p class="error" role="alert">${t('bindUpstream.noneAvailable')}</p>`;
  return layout(
    lang,
    t('bindUpstream.title'),
    html`<p>
        ${rich(
          'bindUpstream.lead',
          { application: model.applicationName, username: model.username },
          BOLD,
        )}
      </p>
      ${body}`,
  );
}
