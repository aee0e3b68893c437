// The Settings tab (admins): the application's settings, its client authentication (the method,
// a private_key_jwt client's keys: client-keys.js), its client secret (reset, shown once) and,
// for the owner, deleting the application, and the latest back-channel logouts. Changing the
// OAuth client settings (the keys and a new back-channel logout URI included), secret reset and
// delete need a passkey.
import {
  fillKeysFields,
  keysFromForm,
  KeysProblem,
  showKeysFields,
  showRegisteredKeys,
} from './client-keys.js';
import {
  $,
  ApiError,
  api,
  confirmationHeader,
  confirmed,
  el,
  errorText,
  fillTable,
  formValues,
  lines,
  say,
  showSecret,
  t,
  when,
} from './core.js';

const TEXT_FIELDS = ['name', 'description', 'homeUrl', 'logo'];
const FLAGS = [
  'enabled',
  'isPublic',
  'requireVerifiedEmail',
  'signUpEnabled',
  'requirePushedAuthorizationRequests',
  'dpopBoundAccessTokens',
  'deviceCodeGrant',
  'backchannelLogoutSessionRequired',
];

export async function showSettings(ctx) {
  fill(ctx.app);
  const form = $('#settings-form');
  form.elements.clientAuthMethod.addEventListener('change', () => showKeysFields(form));
  for (const radio of form.elements.keySource) {
    radio.addEventListener('change', () => showKeysFields(form));
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say('#settings-status', ''); // the last save's outcome, if any, is old news
    const values = formValues(form);
    let keys;
    try {
      keys = keysFromForm(form, ctx.app);
    } catch (error) {
      if (!(error instanceof KeysProblem)) throw error;
      say('#settings-status', error.message, 'error');
      return;
    }
    const body = {
      redirectUris: lines(values.redirectUris),
      postLogoutRedirectUris: lines(values.postLogoutRedirectUris),
      clientAuthMethod: values.clientAuthMethod,
      securityProfile: values.securityProfile,
      idTokenSignedResponseAlg: values.idTokenSignedResponseAlg,
      requiredUpstreams: values.requiredUpstreams
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    };
    for (const name of [...TEXT_FIELDS, ...FLAGS]) body[name] = values[name];
    Object.assign(body, keys);
    // Sent only when it changes: a new address needs the passkey, an empty field removes it.
    const logoutUri = values.backchannelLogoutUri.trim() || null;
    if (logoutUri !== (ctx.app.backchannelLogoutUri ?? null)) body.backchannelLogoutUri = logoutUri;
    try {
      const result = await save(ctx, body);
      if (!result) return;
      const { clientSecret, ...updated } = result;
      // Only a private_key_jwt client's answer has keys: none means there are none now.
      ctx.setApp({ jwks: null, jwksUri: null, ...updated });
      fill(ctx.app);
      say('#settings-status', t('console.settings.saved'));
      // Switching a public client to `secret` issues its first secret, shown this once.
      if (clientSecret) showSecret('client-secret', clientSecret);
    } catch (error) {
      say('#settings-status', errorText(error), 'error');
    }
  });
  $('#reset-secret').addEventListener('click', () => void resetSecret(ctx));
  void loadLogouts(ctx);
  $('#danger-zone').hidden = !ctx.isOwner;
  $('#delete-app').addEventListener('click', () => void deleteApplication(ctx));
}

// Where codes and tokens may go, and how the client proves itself (the method and, when sent, the
// keys): changing any of them needs a passkey confirmation bound to exactly these values
// (docs/console.md).
const CLIENT_SETTINGS = ['redirectUris', 'postLogoutRedirectUris', 'clientAuthMethod'];
const KEY_SETTINGS = ['jwks', 'jwksUri', 'backchannelLogoutUri'];

const sameSet = (a, b) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
};

/**
 * Whether `body` changes a client setting of `app` (lists compared as sets, as the API does;
 * keys are in the body only when they differ from the registered ones).
 */
function changesClient(app, body) {
  return (
    !sameSet(body.redirectUris, app.redirectUris ?? []) ||
    !sameSet(body.postLogoutRedirectUris, app.postLogoutRedirectUris ?? []) ||
    body.clientAuthMethod !== app.clientAuthMethod ||
    ['jwks', 'jwksUri'].some((name) => name in body) ||
    // A new back-channel logout address; removing it (null) needs no passkey.
    typeof body.backchannelLogoutUri === 'string'
  );
}

/** PATCHes the settings, through the passkey dialog when a client setting changes; null if cancelled. */
function save(ctx, body) {
  if (!changesClient(ctx.app, body)) return api('PATCH', ctx.base, { body });
  const settings = Object.fromEntries(
    [...CLIENT_SETTINGS, ...KEY_SETTINGS.filter((name) => name in body)].map((name) => [
      name,
      body[name],
    ]),
  );
  return confirmed(
    t('console.settings.confirmClient', { name: ctx.app.name }),
    { action: 'client_settings.update', applicationId: ctx.id, settings },
    (token) => api('PATCH', ctx.base, { body, headers: confirmationHeader(token) }),
    refusedSettings,
  );
}

/**
 * A client setting the API refuses (a key it checks further than the page: size, curve, alg,
 * use, kid): its reason in the API's words, after a lead in the page's language.
 */
const refusedSettings = (error) =>
  error instanceof ApiError && error.code === 'invalid_request'
    ? t('console.settings.refused', { reason: error.message })
    : null;

function fill(app) {
  const form = $('#settings-form');
  for (const name of TEXT_FIELDS) form.elements[name].value = app[name] ?? '';
  for (const name of FLAGS) form.elements[name].checked = Boolean(app[name]);
  form.elements.redirectUris.value = (app.redirectUris ?? []).join('\n');
  form.elements.postLogoutRedirectUris.value = (app.postLogoutRedirectUris ?? []).join('\n');
  form.elements.requiredUpstreams.value = (app.requiredUpstreams ?? []).join(', ');
  form.elements.clientAuthMethod.value = app.clientAuthMethod ?? 'secret';
  form.elements.securityProfile.value = app.securityProfile ?? 'none';
  fillKeysFields(form, app);
  showRegisteredKeys(app);
  form.elements.idTokenSignedResponseAlg.value = app.idTokenSignedResponseAlg ?? 'RS256';
  form.elements.backchannelLogoutUri.value = app.backchannelLogoutUri ?? '';
  $('#client-id').textContent = app.clientId ?? '';
  // Only a `secret` client has a secret to reset.
  $('#reset-secret').hidden = app.clientAuthMethod !== 'secret';
}

async function resetSecret(ctx) {
  const result = await confirmed(
    t('console.settings.confirmReset', { name: ctx.app.name }),
    { action: 'client_secret.reset', applicationId: ctx.id },
    (token) => api('POST', `${ctx.base}/client-secret`, { headers: confirmationHeader(token) }),
  );
  if (!result) return;
  say('#secret-status', t('console.settings.secretReset'));
  showSecret('client-secret', result.clientSecret);
}

async function deleteApplication(ctx) {
  const done = await confirmed(
    t('console.settings.confirmDelete', { name: ctx.app.name }),
    { action: 'application.delete', applicationId: ctx.id },
    async (token) => {
      await api('DELETE', ctx.base, { headers: confirmationHeader(token) });
      return true;
    },
  );
  if (done) location.assign('/console');
}

const LOGOUT_STATUS_LABELS = {
  pending: 'console.settings.backchannel.pending',
  delivered: 'console.settings.backchannel.delivered',
  refused: 'console.settings.backchannel.refused',
  abandoned: 'console.settings.backchannel.abandoned',
};

/** The latest back-channel logouts: status, attempts, the last answer and the next attempt. */
async function loadLogouts(ctx) {
  try {
    const logouts = await api('GET', `${ctx.base}/backchannel-logouts`);
    fillTable(
      $('#backchannel-logouts'),
      logouts.map((logout) =>
        el(
          'tr',
          {},
          el('td', {}, when(logout.createdAt)),
          el(
            'td',
            {},
            el(
              'span',
              { class: logout.status === 'delivered' ? 'badge ok' : 'badge off' },
              t(LOGOUT_STATUS_LABELS[logout.status] ?? logout.status),
            ),
          ),
          el('td', {}, String(logout.attempts)),
          el(
            'td',
            {},
            logout.lastStatusCode === null
              ? logout.attempts > 0
                ? t('console.settings.backchannel.noAnswer')
                : ''
              : String(logout.lastStatusCode),
            logout.lastError ? el('div', { class: 'muted' }, logout.lastError) : null,
          ),
          el('td', {}, when(logout.nextAttemptAt, '')),
        ),
      ),
      t('console.settings.backchannel.empty'),
    );
  } catch (error) {
    say('#backchannel-status', errorText(error), 'error');
  }
}
