import { html, Html, layout } from './html';

export interface LoginPageModel {
  applicationName: string;
  requestId: string;
  csrfToken: string;
  username?: string;
  error?: string;
  upstreamProviders: string[];
}

const PROVIDER_LABELS: Record<string, string> = {
  forum: 'Forum',
  github: 'GitHub',
  google: 'Google',
  qq: 'QQ',
  wechat: 'WeChat',
};

/**
 * The login form (contract for automated clients: inputs `username` and `password`, hidden
 * `request` and `csrf_token`). Upstream providers are listed but not yet available.
 */
export function loginPage(model: LoginPageModel): string {
  const error = model.error ? html`<p class="error" role="alert">${model.error}</p>` : html``;
  const providers: Html[] = model.upstreamProviders.map(
    (name) =>
      html`<li>
        <button type="button" class="secondary" disabled>${PROVIDER_LABELS[name] ?? name}</button>
      </li>`,
  );
  const upstream =
    providers.length > 0
      ? html`<p class="muted">Other sign-in methods (not yet available):</p>
          <ul class="providers">
            ${providers}
          </ul>`
      : html``;
  return layout(
    'Sign in',
    html`<p>to continue to <strong>${model.applicationName}</strong></p>
      ${error}
      <form method="post" action="/oauth2/login">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="username">Username or email</label>
        <input
          type="text"
          id="username"
          name="username"
          autocomplete="username"
          required
          value="${model.username ?? ''}"
        />
        <label for="password">Password</label>
        <input
          type="password"
          id="password"
          name="password"
          autocomplete="current-password"
          required
        />
        <button type="submit">Sign in</button>
      </form>
      ${upstream}`,
  );
}
