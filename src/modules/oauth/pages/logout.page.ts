import { html, layout } from './html';

/**
 * The sign-out confirmation (contract: hidden `csrf_token`, POST /oauth2/logout); with an
 * RP-initiated request, also the sealed `logout_request` that names where to go afterwards.
 */
export function logoutPage(csrfToken: string, sealedRequest?: string): string {
  const request =
    sealedRequest === undefined
      ? html``
      : html`<input type="hidden" name="logout_request" value="${sealedRequest}" />`;
  return layout(
    'Sign out',
    html`<p>Sign out of your account on this browser?</p>
      <form method="post" action="/oauth2/logout">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        ${request}
        <button type="submit">Sign out</button>
      </form>`,
  );
}
