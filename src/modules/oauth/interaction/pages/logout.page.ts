import { html, layout } from '../../../../common/http/html';

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

/**
 * "Signed out", with a link back to the application when a relying party asked to return
 * (RP-Initiated Logout 1.0 section 3) but the end-session endpoint does not redirect by itself:
 * the visitor chooses to follow it, so the endpoint is no redirector for whoever sends a link.
 */
export function signedOutPage(link?: { redirectTo: string; applicationName?: string }): string {
  const back =
    link === undefined
      ? html``
      : html`<p>
          <a href="${link.redirectTo}">Return to ${link.applicationName ?? 'the application'}</a>
        </p>`;
  return layout(
    'Signed out',
    html`<p>You are signed out.</p>
      ${back}`,
  );
}
