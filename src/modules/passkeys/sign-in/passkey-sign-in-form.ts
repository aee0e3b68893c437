import { html, Html } from '../../../common/http/html';
import { PASSKEY_SCRIPT_URL } from './passkey-script';
import type { Translate } from '../../../common/i18n/i18n';

export interface PasskeySignInFormModel {
  /** Where the form POSTs the ceremony id and the assertion (a normal form submission). */
  action: string;
  /** Where the script POSTs the form's other hidden fields for the options (JSON answer). */
  optionsUrl: string;
  /** The page's own hidden fields, sent with both requests (the request, the CSRF token…). */
  fields: Record<string, string>;
}

/**
 * "Sign in with a passkey" for any server-rendered sign-in page: the form the passkey script
 * (assets/passkey-sign-in.js) acts on, hidden until the script finds WebAuthn, and the script's
 * tag. A page using it answers with PageResult.ownScript, which lets its CSP run the script.
 * The script's own messages come from the page's catalog, as data attributes of its error box.
 */
export function passkeySignInForm(t: Translate, model: PasskeySignInFormModel): Html {
  const fields = Object.entries(model.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  return html`<form
      method="post"
      action="${model.action}"
      class="passkey-sign-in"
      data-passkey-options="${model.optionsUrl}"
      hidden
    >
      ${fields}
      <input type="hidden" name="ceremony_id" value="" />
      <input type="hidden" name="assertion" value="" />
      <button type="submit" class="secondary">${t('passkey.signIn')}</button>
      <p
        class="error"
        role="alert"
        data-passkey-error
        data-message-cancelled="${t('passkey.script.cancelled')}"
        data-message-busy="${t('passkey.script.busy')}"
        data-message-failed="${t('passkey.script.failed')}"
        hidden
      ></p>
    </form>
    <script src="${PASSKEY_SCRIPT_URL}" defer></script>`;
}
