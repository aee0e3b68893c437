// GET /console/account: the signed-in user and their passkeys (register, rename, remove).
// The first passkey needs a recent password sign-in; later ones and removals are confirmed with
// an existing passkey. Also the connected upstream accounts: connect, and disconnect
// confirmed with a passkey, connect with a passkey or a fresh password sign-in (docs/upstreams.md).
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
  t,
  when,
} from './core.js';

const PASSKEYS = '/api/console/account/passkeys';
const UPSTREAMS = '/api/console/account/upstreams';

async function start() {
  const session = await requireSession();
  $('#account').hidden = false;
  const user = session.user;
  $('#profile').replaceChildren(
    ...[
      ['console.account.username', user.username],
      ['console.account.email', user.email],
      ['console.account.nickname', user.nickname || '—'],
      [
        'console.account.signedInWith',
        t(
          session.authMethod === 'passkey'
            ? 'console.account.withPasskey'
            : 'console.account.withPassword',
        ),
      ],
      ['console.account.signedInAt', when(session.signedInAt)],
    ].flatMap(([term, value]) => [el('dt', {}, t(term)), el('dd', {}, value)]),
  );
  $('#add-passkey').addEventListener('submit', (event) => {
    event.preventDefault();
    void addPasskey();
  });
  await Promise.all([loadPasskeys(), loadUpstreams()]);
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
          el('td', {}, t(passkey.backedUp ? 'console.account.yes' : 'console.account.no')),
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
              t('console.account.rename'),
            ),
            el(
              'button',
              { type: 'button', class: 'small danger', onclick: () => remove(passkey) },
              t('console.account.remove'),
            ),
          ),
        ),
      ),
      t('console.account.noPasskeys'),
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
          t('console.account.confirmAdd', { name }),
          { action: 'passkey.register' },
          (token) => register(confirmationHeader(token)),
        );
  if (!added) return;
  form.reset();
  say('#passkeys-status', t('console.account.added', { name: added.name }));
  await loadPasskeys();
}

async function attempt(work) {
  try {
    return await work();
  } catch (error) {
    say(
      '#passkeys-status',
      error instanceof ApiError && error.code === 'recent_sign_in_required'
        ? t('console.account.firstPasskey')
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
    el(
      'label',
      { for: input.id, class: 'visually-hidden' },
      t('console.account.newNameOf', { name: passkey.name }),
    ),
    input,
    el('button', { type: 'submit', class: 'small' }, t('console.account.save')),
    el(
      'button',
      { type: 'button', class: 'small secondary', onclick: loadPasskeys },
      t('console.common.cancel'),
    ),
  );
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') void loadPasskeys();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    try {
      await api('PATCH', `${PASSKEYS}/${encodeURIComponent(passkey.id)}`, { body: { name } });
      say('#passkeys-status', t('console.account.renamed', { name }));
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
    t('console.account.confirmRemove', { name: passkey.name }),
    { action: 'passkey.remove', passkeyId: passkey.id },
    async (token) => {
      await api('DELETE', `${PASSKEYS}/${encodeURIComponent(passkey.id)}`, {
        headers: confirmationHeader(token),
      });
      return true;
    },
  );
  if (!done) return;
  say('#passkeys-status', t('console.account.removed', { name: passkey.name }));
  await loadPasskeys();
}

/** The configured providers, which the page carries (id → display name). */
function providerNames() {
  return new Map(
    [...document.querySelectorAll('#upstream-providers [data-provider-id]')].map((item) => [
      item.dataset.providerId,
      item.textContent.trim(),
    ]),
  );
}

async function loadUpstreams() {
  const names = providerNames();
  let bindings;
  try {
    bindings = await api('GET', UPSTREAMS);
  } catch (error) {
    say('#upstreams-status', errorText(error), 'error');
    return;
  }
  fillTable(
    $('#upstreams-table'),
    bindings.map((binding) => {
      const provider = names.get(binding.providerId) ?? binding.providerId;
      return el(
        'tr',
        { 'data-upstream-id': binding.id },
        el('td', {}, provider),
        el('td', {}, binding.username ?? binding.subject),
        el('td', {}, when(binding.createdAt)),
        el(
          'td',
          { class: 'actions' },
          el(
            'button',
            {
              type: 'button',
              class: 'small danger',
              onclick: () => disconnect(binding, provider),
            },
            t('console.account.disconnect'),
          ),
        ),
      );
    }),
    t('console.account.noUpstreams'),
  );
  const bound = new Set(bindings.map((binding) => binding.providerId));
  $('#connect-upstreams').replaceChildren(
    ...[...names]
      .filter(([id]) => !bound.has(id))
      .map(([id, name]) =>
        el(
          'button',
          { type: 'button', 'data-connect': id, onclick: () => connect(id, name) },
          t('console.account.connect', { provider: name }),
        ),
      ),
  );
}

/** The API sets the attempt cookie and answers the provider's URL; the provider comes back to
 * the callback, which binds the account and returns here. Binding is a step-up: confirmed with a
 * passkey, or, without one, allowed within 5 minutes of a password sign-in (else the API says
 * to sign in again). */
async function connect(providerId, provider) {
  say('#upstreams-status', '');
  const bind = (headers) =>
    api('POST', `${UPSTREAMS}/${encodeURIComponent(providerId)}/bind`, { headers });
  try {
    const result =
      passkeys.length === 0
        ? await bind({})
        : await confirmed(
            t('console.account.confirmConnect', { provider }),
            { action: 'upstream.bind', providerId },
            (token) => bind(confirmationHeader(token)),
          );
    if (result) window.location.assign(result.location);
  } catch (error) {
    say('#upstreams-status', errorText(error), 'error');
  }
}

async function disconnect(binding, provider) {
  // The server's refusal (the last way to sign in) is shown in the dialog, where it happened.
  const done = await confirmed(
    t('console.account.confirmDisconnect', {
      provider,
      username: binding.username ?? binding.subject,
    }),
    { action: 'upstream.unbind', upstreamIdentityId: binding.id },
    async (token) => {
      await api('DELETE', `${UPSTREAMS}/${encodeURIComponent(binding.id)}`, {
        headers: confirmationHeader(token),
      });
      return true;
    },
  );
  if (!done) return;
  say('#upstreams-status', t('console.account.disconnected', { provider }));
  await loadUpstreams();
}

void start();
