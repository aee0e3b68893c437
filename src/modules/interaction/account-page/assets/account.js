// GET /account: adds and removes passkeys and connects and disconnects upstream accounts through
// the console's JSON API (/api/console/...), so its step-up rules stay in one place: the first
// passkey needs a password sign-in within 5 minutes, later ones and removals a passkey
// confirmation; connecting needs an upstream.bind confirmation (or, without a passkey, a recent
// sign-in), disconnecting an upstream.unbind one (docs/accounts.md). The lists themselves are
// rendered by the server; after a change the page is loaded again with its notice. Its words
// come from the page's catalog: the status boxes' data-message-* and each button's data-confirm.
import {
  $,
  $$,
  ApiError,
  api,
  confirmationHeader,
  confirmed,
  createPasskey,
  errorText,
  loadSession,
  say,
} from '/console/assets/core.js';

const PASSKEYS = '/api/console/account/passkeys';
const UPSTREAMS = '/api/console/account/upstreams';

/** Back to the page, which shows the notice of `done`. */
const reload = (done) => location.assign(`/account?done=${done}`);

const passkeyCount = () => $$('#passkeys tr[data-passkey-id]').length;

/**
 * The refusals a person can act on, in the words `box` carries; the rest as the console says
 * them.
 */
function message(box, error) {
  const words = $(box).dataset;
  if (error instanceof ApiError && error.code === 'recent_sign_in_required') {
    return words.messageRecentSignIn;
  }
  if (error instanceof DOMException && error.name === 'NotAllowedError') {
    return words.messageNotConfirmed;
  }
  return errorText(error);
}

async function addPasskey(form) {
  const name = form.elements.name.value.trim();
  say('#passkeys-status', '');
  const register = async (headers) => {
    const { ceremonyId, options } = await api('POST', `${PASSKEYS}/options`, {
      body: {},
      headers,
    });
    const response = await createPasskey(options);
    return api('POST', PASSKEYS, { body: { ceremonyId, name, response } });
  };
  try {
    const added =
      passkeyCount() === 0
        ? await register({})
        : await confirmed(
            $('#passkeys-status').dataset.messageConfirmAdd.split('{name}').join(name),
            { action: 'passkey.register' },
            (token) => register(confirmationHeader(token)),
          );
    if (added) reload('passkey_added');
  } catch (error) {
    say('#passkeys-status', message('#passkeys-status', error), 'error');
  }
}

async function removePasskey(button) {
  const { passkeyId } = button.closest('tr').dataset;
  const { confirm } = button.dataset;
  const done = await confirmed(confirm, { action: 'passkey.remove', passkeyId }, async (token) => {
    await api('DELETE', `${PASSKEYS}/${encodeURIComponent(passkeyId)}`, {
      headers: confirmationHeader(token),
    });
    return true;
  });
  if (done) reload('passkey_removed');
}

/** The API answers the provider's URL; the provider returns to /account?done=upstream_connected. */
async function connect(button) {
  const { connect: providerId, confirm } = button.dataset;
  say('#upstreams-status', '');
  const bind = (headers) =>
    api('POST', `${UPSTREAMS}/${encodeURIComponent(providerId)}/bind?returnTo=account`, {
      headers,
    });
  try {
    const result =
      passkeyCount() === 0
        ? await bind({})
        : await confirmed(confirm, { action: 'upstream.bind', providerId }, (token) =>
            bind(confirmationHeader(token)),
          );
    if (result) location.assign(result.location);
  } catch (error) {
    say('#upstreams-status', message('#upstreams-status', error), 'error');
  }
}

async function disconnect(button) {
  const { upstreamId } = button.closest('tr').dataset;
  const { confirm } = button.dataset;
  if (passkeyCount() === 0) {
    say('#upstreams-status', $('#upstreams-status').dataset.messageNeedsPasskey, 'error');
    return;
  }
  // The server's refusal (the last way to sign in) is shown in the dialog, where it happened.
  const done = await confirmed(
    confirm,
    { action: 'upstream.unbind', upstreamIdentityId: Number(upstreamId) },
    async (token) => {
      await api('DELETE', `${UPSTREAMS}/${encodeURIComponent(upstreamId)}`, {
        headers: confirmationHeader(token),
      });
      return true;
    },
  );
  if (done) reload('upstream_disconnected');
}

async function start() {
  // The CSRF token of the console API (bound to this session); none: the session has ended.
  if (!(await loadSession())) {
    location.assign('/account/login');
    return;
  }
  $('#add-passkey').addEventListener('submit', (event) => {
    event.preventDefault();
    void addPasskey(event.currentTarget);
  });
  for (const button of $$('[data-remove-passkey]')) {
    button.addEventListener('click', () => removePasskey(button));
  }
  for (const button of $$('[data-connect]')) {
    button.addEventListener('click', () => connect(button));
  }
  for (const button of $$('[data-disconnect]')) {
    button.addEventListener('click', () => disconnect(button));
  }
  for (const hidden of $$('.scripted, [data-remove-passkey], [data-disconnect]')) {
    hidden.hidden = false;
  }
}

void start();
