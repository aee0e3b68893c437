// Passkey sign-in on a server-rendered sign-in page (docs/oauth.md, "Passkey sign-in"). Plain
// script, no framework, no inline code: a page links this file and marks a form
//
//   <form method="post" action="WHERE THE ASSERTION GOES" data-passkey-options="OPTIONS URL" hidden>
//     <input type="hidden" name="…" value="…" />   (the page's own fields: request, csrf_token…)
//     <input type="hidden" name="ceremony_id" />   <input type="hidden" name="assertion" />
//     <button type="submit">Sign in with a passkey</button>
//     <p data-passkey-error data-message-cancelled="…" data-message-busy="…"
//        data-message-failed="…" hidden></p>   (the page's words for the script's messages)
//   </form>
//
// The form is shown only where WebAuthn exists. Its button asks the browser's passkey prompt:
// the form's other hidden fields are posted (form-encoded) to data-passkey-options, which
// answers {ceremonyId, options}; navigator.credentials.get signs the challenge; the ceremony id
// and the assertion (JSON) go into ceremony_id and assertion, and the form is submitted as a
// normal POST, so the server answers with a page or a redirect as for any sign-in form. On a page
// with an input autocomplete="username webauthn", a conditional request starts at load, so the
// browser offers the passkeys in that input's autofill; the button aborts it for its own prompt.
'use strict';

(() => {
  const forms = [...document.querySelectorAll('form[data-passkey-options]')];
  if (forms.length === 0 || typeof window.PublicKeyCredential !== 'function') return;

  const OWN_FIELDS = new Set(['ceremony_id', 'assertion']);

  /** The options route refused: its HTTP status. */
  class StartRefused extends Error {
    constructor(status) {
      super(`passkey options answered ${status}`);
      this.status = status;
    }
  }

  // One WebAuthn request at a time per page: a new one aborts the one under way.
  let current = null;

  function fromBase64url(text) {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0)).buffer;
  }

  function toBase64url(buffer) {
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** The server's PublicKeyCredentialRequestOptionsJSON as navigator.credentials.get takes it. */
  const requestOptions = (options) => ({
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map((descriptor) => ({
      ...descriptor,
      id: fromBase64url(descriptor.id),
    })),
  });

  /** The assertion in the JSON form the server verifies (AuthenticationResponseJSON). */
  const assertionJson = (credential) => ({
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(credential.response.clientDataJSON),
      authenticatorData: toBase64url(credential.response.authenticatorData),
      signature: toBase64url(credential.response.signature),
      userHandle: credential.response.userHandle
        ? toBase64url(credential.response.userHandle)
        : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  });

  const field = (form, name) => form.querySelector(`input[name="${name}"]`);

  function showError(form, text) {
    const box = form.querySelector('[data-passkey-error]');
    if (!box) return;
    box.textContent = text;
    box.hidden = text === '';
  }

  /** POSTs the form's own hidden fields to its options URL: {ceremonyId, options}. */
  async function startCeremony(form, signal) {
    const body = new URLSearchParams();
    for (const input of form.querySelectorAll('input[type="hidden"]')) {
      if (!OWN_FIELDS.has(input.name)) body.append(input.name, input.value);
    }
    const response = await fetch(form.dataset.passkeyOptions, {
      method: 'POST',
      body,
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new StartRefused(response.status);
    return response.json();
  }

  /** The page's words for what went wrong: its error box's data-message-* (from its catalog). */
  function messageOf(form, error) {
    const kind =
      error instanceof StartRefused
        ? error.status === 429
          ? 'busy'
          : 'failed'
        : error && error.name === 'NotAllowedError'
          ? 'cancelled'
          : 'failed';
    const box = form.querySelector('[data-passkey-error]');
    return (box && box.getAttribute(`data-message-${kind}`)) || '';
  }

  /**
   * One sign-in: `conditional` (in the autofill of the username input, waiting silently) or
   * with the browser's prompt (errors shown under the button). Submits the form on success.
   */
  async function signIn(form, conditional) {
    if (current) current.abort();
    const controller = new AbortController();
    current = controller;
    const button = form.querySelector('button');
    const modal = !conditional;
    if (modal) showError(form, '');
    if (modal && button) button.disabled = true;
    try {
      const started = await startCeremony(form, controller.signal);
      const credential = await navigator.credentials.get({
        ...(conditional ? { mediation: 'conditional' } : {}),
        publicKey: requestOptions(started.options),
        signal: controller.signal,
      });
      field(form, 'ceremony_id').value = started.ceremonyId;
      field(form, 'assertion').value = JSON.stringify(assertionJson(credential));
      form.submit();
    } catch (error) {
      // An aborted request was replaced by another; a conditional one fails silently (the
      // button is still there to try with the prompt).
      if (modal && !controller.signal.aborted) showError(form, messageOf(form, error));
    } finally {
      if (current === controller) current = null;
      if (modal && button) button.disabled = false;
    }
  }

  async function conditionalMediationAvailable() {
    const check = PublicKeyCredential.isConditionalMediationAvailable;
    if (typeof check !== 'function') return false;
    try {
      return await check.call(PublicKeyCredential);
    } catch {
      return false;
    }
  }

  for (const form of forms) {
    form.hidden = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void signIn(form, false);
    });
  }

  // Autofill: the page's username input says it takes passkeys (autocomplete "… webauthn").
  if (document.querySelector('input[autocomplete~="webauthn"]')) {
    void conditionalMediationAvailable().then((available) => {
      if (available && current === null) return signIn(forms[0], true);
      return undefined;
    });
  }
})();
