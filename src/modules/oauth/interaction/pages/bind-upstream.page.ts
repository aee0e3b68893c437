import { html, Html, layout } from '../../../../common/http/html';

export interface BindUpstreamPageModel {
  applicationName: string;
  username: string;
  requestId: string;
  csrfToken: string;
  /** One form per required, enabled provider (POST, so no other site can start a binding). */
  providers: { displayName: string; action: string }[];
}

/** Required upstream: the application needs an upstream account bound to this user first. */
export function bindUpstreamPage(model: BindUpstreamPageModel): string {
  const forms: Html[] = model.providers.map(
    (provider) =>
      html`<li>
        <form method="post" action="${provider.action}">
          <input type="hidden" name="request" value="${model.requestId}" />
          <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
          <button type="submit" class="secondary">Bind ${provider.displayName}</button>
        </form>
      </li>`,
  );
  const body =
    forms.length > 0
      ? html`<p>Bind one of these accounts to continue:</p>
          <ul class="providers">
            ${forms}
          </ul>`
      : html`<p class="error" role="alert">
          None of the sign-in providers it requires is available here. Contact the application's
          developer.
        </p>`;
  return layout(
    'Bind an account',
    html`<p>
        <strong>${model.applicationName}</strong> requires your account
        <strong>${model.username}</strong> to be bound to another sign-in provider.
      </p>
      ${body}`,
  );
}
