// GET /console/account: the signed-in user and their passkeys (register, rename, remove).
// The first passkey needs a recent password sign-in; later ones and removals are confirmed with
// an existing passkey (issue 10).
import {
  $,
  ApiError,
  api,
  confirmationHeader,
  confirmed,
  createPasskey,
  el,
  errorText,
  fillTable,
  requireSession,
  say,
  when,
} from './core.js';

const PASSKEYS = '/api/console/account/passkeys';

async function start() {
  const session = await requireSession();
  $('#account').hidden = false;
  const user = session.user;
  $('#profile').replaceChildren(
    ...[
      ['Username', user.username],
      ['Email', user.email],
      ['Nickname', user.nickname || '—'],
      ['Signed in with', session.authMethod === 'passkey' ? 'a passkey' : 'a password'],
      ['Signed in at', when(session.signedInAt)],
    ].flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
  );
  $('#add-passkey').addEventListener('submit', (event) => {
    event.preventDefault();
    void addPasskey();
  });
  await loadPasskeys();
}

let passkeys = [];

async function loadPasskeys() {
  try {
    passkeys = await api('GET', PASSKEYS);
    fillTable(
      $('#passkeys-table'),
      passkeys.map((passkey) =>
        el(
          'tr',
          { 'data-passkey-id': passkey.id },
          el('td', {}, passkey.name),
          el('td', {}, when(passkey.createdAt)),
          el('td', {}, when(passkey.lastUsedAt)),
          el('td', {}, passkey.backedUp ? 'Yes' : 'No'),
          el(
            'td',
            { class: 'actions' },
            el(
              'button',
              {
                type: 'button',
                class: 'small secondary',
                onclick: (event) => rename(passkey, event.currentTarget),
              },
              'Rename',
            ),
            el(
              'button',
              { type: 'button', class: 'small danger', onclick: () => remove(passkey) },
              'Remove',
            ),
          ),
        ),
      ),
      'No passkeys yet. Add one to sign in without a password and to manage API keys.',
    );
  } catch (error) {
    say('#passkeys-status', errorText(error), 'error');
  }
}

async function addPasskey() {
  const form = $('#add-passkey');
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
  // The first passkey: the recent password sign-in is the proof. Later ones: an existing passkey.
  const added =
    passkeys.length === 0
      ? await attempt(() => register({}))
      : await confirmed(
          `Add the passkey "${name}" to your account.`,
          { action: 'passkey.register' },
          (token) => register(confirmationHeader(token)),
        );
  if (!added) return;
  form.reset();
  say('#passkeys-status', `Passkey "${added.name}" added.`);
  await loadPasskeys();
}

async function attempt(work) {
  try {
    return await work();
  } catch (error) {
    say(
      '#passkeys-status',
      error instanceof ApiError && error.code === 'recent_sign_in_required'
        ? 'For your first passkey, sign out and sign in again with your password, then add it ' +
            'within 5 minutes.'
        : errorText(error),
      'error',
    );
    return null;
  }
}

/** Turns the passkey's name cell into a small form (Enter saves, Escape cancels). */
function rename(passkey, button) {
  const cell = button.closest('tr').cells[0];
  const input = el('input', {
    type: 'text',
    id: `rename-${passkey.id}`,
    value: passkey.name,
    maxlength: 64,
    required: true,
  });
  const form = el(
    'form',
    { class: 'rename' },
    el('label', { for: input.id, class: 'visually-hidden' }, `New name of ${passkey.name}`),
    input,
    el('button', { type: 'submit', class: 'small' }, 'Save'),
    el('button', { type: 'button', class: 'small secondary', onclick: loadPasskeys }, 'Cancel'),
  );
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') void loadPasskeys();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    try {
      await api('PATCH', `${PASSKEYS}/${encodeURIComponent(passkey.id)}`, { body: { name } });
      say('#passkeys-status', `Passkey renamed to "${name}".`);
    } catch (error) {
      say('#passkeys-status', errorText(error), 'error');
    }
    await loadPasskeys();
  });
  cell.replaceChildren(form);
  input.select();
}

async function remove(passkey) {
  const done = await confirmed(
    `Remove the passkey "${passkey.name}". It can no longer sign you in or confirm operations.`,
    { action: 'passkey.remove', passkeyId: passkey.id },
    async (token) => {
      await api('DELETE', `${PASSKEYS}/${encodeURIComponent(passkey.id)}`, {
        headers: confirmationHeader(token),
      });
      return true;
    },
  );
  if (!done) return;
  say('#passkeys-status', `Passkey "${passkey.name}" removed.`);
  await loadPasskeys();
}

void start();
