import { html, layout } from './html';

/** The sign-out confirmation (contract: hidden `csrf_token`, POST /oauth2/logout). */
export function logoutPage(csrfToken: string): string {
  return layout(
    'Sign out',
    html`<p>Sign out of your account on this browser?</p>
      <form method="post" action="/oauth2/logout">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        <button type="submit">Sign out</button>
      </form>`,
  );
}
