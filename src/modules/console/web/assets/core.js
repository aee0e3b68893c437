// The console's shared browser code: the JSON API client (session cookie + X-CSRF-Token),
// small DOM helpers, WebAuthn JSON <-> ArrayBuffer conversion, and the passkey confirmation
// dialog every key, secret, delete and passkey operation goes through (docs/console.md), and the
// page's words: `t` and `rich` format the catalog messages the page hands over in its JSON data
// block #console-messages (docs/languages.md), with intl-messageformat's browser build.
// Plain ES module, no framework, no build step; served from /console/assets/.

// ---------------------------------------------------------------- words

const words = JSON.parse(document.getElementById('console-messages').textContent);
const { IntlMessageFormat } = await import(words.formatter);

/** The page's language, a catalog's BCP 47 tag (`en`, `zh-CN`). */
export const locale = words.locale;

const formats = new Map();

/** The compiled message of a key (`console.keys.created`), or null when the page lacks it. */
function messageFormat(key) {
  if (!formats.has(key)) {
    const source = key.split('.').reduce((part, name) => part?.[name], words.messages);
    formats.set(key, typeof source === 'string' ? new IntlMessageFormat(source, locale) : null);
  }
  return formats.get(key);
}

/** A message as text, its `{values}` filled in (plurals and all); a missing one shows its key. */
export function t(key, values) {
  const format = messageFormat(key);
  return format ? String(format.format(values)) : key;
}

/**
 * A message with markup tags (`<a>…</a>`, `<time></time>`) as DOM parts for `el` or `say`: the
 * words and `values` become text nodes, and each tag is the node its function in `tags` makes
 * of the tag's parts.
 */
export function rich(key, values, tags) {
  const format = messageFormat(key);
  if (!format) return [key];
  const out = format.format({ ...values, ...tags });
  return Array.isArray(out) ? out : [out];
}

const numberFormat = new Intl.NumberFormat(locale);
const listFormat = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' });
const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

/** A number as the page's language writes it (`1,234`). */
export const formatNumber = (value) => numberFormat.format(Number(value));

/** A list as the page's language writes it (`a, b and c`). */
export const formatList = (items) => listFormat.format(items);

/** A date and time in the browser's time zone, as the page's language writes it. */
export const formatDate = (date) => dateFormat.format(date);

/** An error answered by the API: `{error, message}` with the HTTP status. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let csrfToken = '';

/** The signed-in session (GET /api/console/session), or null when there is none. */
export async function loadSession() {
  const response = await fetch('/api/console/session', {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (response.status === 401) return null;
  const body = await readBody(response);
  if (!response.ok) throw apiError(response, body);
  csrfToken = body.csrfToken;
  return body;
}

/** Remembers the CSRF token of a sign-in response (password or passkey). */
export function useSession(session) {
  csrfToken = session.csrfToken;
  return session;
}

/**
 * Calls the console API. State changes carry the CSRF token; bodies are JSON. A 401 on any call
 * but sign-in means the session ended: back to the sign-in page.
 */
export async function api(method, path, { body, headers = {} } = {}) {
  const init = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...headers },
  };
  if (method !== 'GET') init.headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const parsed = await readBody(response);
  if (response.status === 401 && !path.startsWith('/api/console/session')) {
    goToSignIn();
    throw apiError(response, parsed);
  }
  if (!response.ok) throw apiError(response, parsed);
  return parsed;
}

async function readBody(response) {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function apiError(response, body) {
  const code = body && typeof body.error === 'string' ? body.error : 'http_' + response.status;
  const message =
    body && typeof body.message === 'string'
      ? body.message
      : t('console.core.requestFailed', { status: response.status });
  return new ApiError(response.status, code, message);
}

/**
 * Sends the browser to the sign-in page, coming back here afterwards. A page outside the console
 * that uses this module (the account page) names its own sign-in page in `<body data-sign-in>`.
 */
export function goToSignIn() {
  const own = document.body.dataset.signIn;
  if (own) {
    location.assign(own);
    return;
  }
  const next = location.pathname + location.search + location.hash;
  location.assign('/console?next=' + encodeURIComponent(next));
}

/**
 * Every page but the sign-in page: needs a session (else sign-in), then shows the top bar.
 * Returns the session.
 */
export async function requireSession() {
  const session = await loadSession();
  if (!session) {
    goToSignIn();
    return new Promise(() => {}); // the page is being left
  }
  showFrame(session);
  return session;
}

/** Shows the top bar for a signed-in user and wires the sign-out button. */
export function showFrame(session) {
  $('#loading').hidden = true;
  $('#nav').hidden = false;
  const who = $('#who');
  who.textContent = session.user.username;
  who.hidden = false;
  const signOut = $('#sign-out');
  signOut.hidden = false;
  signOut.onclick = async () => {
    signOut.disabled = true;
    try {
      await api('DELETE', '/api/console/session');
    } finally {
      location.assign('/console');
    }
  };
}

// ---------------------------------------------------------------- DOM helpers

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/**
 * Creates an element: `el('td', {class: 'x'}, 'text', otherNode)`. Text goes in as text nodes,
 * never as HTML, so nothing from the API can inject markup.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (value === true) {
      node.setAttribute(name, '');
    } else {
      node.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces a table body's rows; an empty list shows one muted row with `emptyText`. */
export function fillTable(table, rows, emptyText) {
  const body = table.tBodies[0];
  const columns = table.tHead.rows[0].cells.length;
  body.replaceChildren(
    ...(rows.length > 0
      ? rows
      : [el('tr', { class: 'empty' }, el('td', { colspan: columns }, emptyText))]),
  );
}

/** Shows a message in an alert box (`kind` ok | error | warn), or hides it with no text. */
export function say(box, text, kind = 'ok') {
  if (typeof box === 'string') box = $(box);
  box.className = 'alert ' + kind;
  box.replaceChildren(...(Array.isArray(text) ? text : [text ?? '']));
  box.hidden = !text;
}

/** A timestamp for people (local time), with the exact RFC 3339 value as the tooltip. */
export function when(iso, never = t('console.core.never')) {
  if (!iso) return el('span', { class: 'muted' }, never);
  return el('time', { datetime: iso, title: iso }, formatDate(new Date(iso)));
}

/**
 * The words for the API's error codes a person can act on; any other error shows the API's own
 * message (English: the API speaks it).
 */
const ERROR_MESSAGES = {
  invalid_credentials: 'console.core.errors.invalidCredentials',
  csrf_failed: 'console.core.errors.csrfFailed',
  forbidden: 'console.core.errors.forbidden',
  passkey_confirmation_required: 'console.core.errors.confirmationRequired',
  recent_sign_in_required: 'console.core.errors.recentSignIn',
  insecure_endpoint: 'console.core.errors.insecureEndpoint',
  rate_limited: 'console.core.errors.rateLimited',
  service_unavailable: 'console.core.errors.unavailable',
  database_unavailable: 'console.core.errors.unavailable',
  internal_error: 'console.core.errors.internal',
  not_found: 'console.core.errors.notFound',
  unauthenticated: 'console.core.errors.unauthenticated',
  payload_too_large: 'console.core.errors.tooLarge',
};

/** Text of an API error for an alert box; a missing passkey links to the account page. */
export function errorText(error) {
  if (error instanceof ApiError && error.code === 'passkey_not_registered') {
    return rich(
      'console.core.needsPasskey',
      {},
      {
        a: (chunks) => el('a', { href: '/console/account' }, chunks),
      },
    );
  }
  if (error instanceof DOMException && error.name === 'NotAllowedError') {
    return t('console.core.notConfirmed');
  }
  if (error instanceof ApiError && Object.hasOwn(ERROR_MESSAGES, error.code)) {
    return t(ERROR_MESSAGES[error.code]);
  }
  return error instanceof Error ? error.message : String(error);
}

/** Reads a form's named fields: text trimmed, checkboxes as booleans, repeated names as arrays. */
export function formValues(form) {
  const values = {};
  for (const field of form.elements) {
    if (!field.name) continue;
    if (field.type === 'checkbox') {
      if (form.querySelectorAll(`[name="${field.name}"]`).length > 1) {
        values[field.name] ??= [];
        if (field.checked) values[field.name].push(field.value);
      } else {
        values[field.name] = field.checked;
      }
    } else if (field.tagName !== 'BUTTON' && field.tagName !== 'FIELDSET') {
      values[field.name] = field.value.trim();
    }
  }
  return values;
}

/** Lines of a textarea as a list, blank lines dropped. */
export const lines = (text) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** Disables a form's buttons while `work` runs. */
export async function busy(form, work) {
  const buttons = $$('button', form);
  buttons.forEach((button) => (button.disabled = true));
  try {
    return await work();
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
}

// ---------------------------------------------------------------- secrets shown once

/** Shows a secret once in its block (see secretBlock in layout.ts) and focuses its copy button. */
export function showSecret(id, value) {
  const block = $('#' + id);
  $('#' + id + '-value').textContent = value;
  block.hidden = false;
  $('[data-copy]', block).focus();
}

function hideSecret(id) {
  $('#' + id + '-value').textContent = '';
  $('#' + id).hidden = true;
}

document.addEventListener('click', async (event) => {
  const copy = event.target.closest('[data-copy]');
  if (copy) {
    const value = document.getElementById(copy.dataset.copy).textContent;
    copy.dataset.label ??= copy.textContent.trim();
    try {
      await navigator.clipboard.writeText(value);
      copy.textContent = t('console.core.copied');
    } catch {
      // No clipboard permission (plain http, older browser): select it for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(copy.dataset.copy));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      copy.textContent = t('console.core.selected');
    }
    setTimeout(() => (copy.textContent = copy.dataset.label), 2500);
  }
  const dismiss = event.target.closest('[data-dismiss]');
  if (dismiss) hideSecret(dismiss.dataset.dismiss);
});

// ---------------------------------------------------------------- WebAuthn

function fromBase64url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const credentialDescriptors = (list) =>
  (list ?? []).map((descriptor) => ({ ...descriptor, id: fromBase64url(descriptor.id) }));

/** navigator.credentials.create with the JSON options of the server; returns the JSON response. */
export async function createPasskey(options) {
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: fromBase64url(options.challenge),
      user: { ...options.user, id: fromBase64url(options.user.id) },
      excludeCredentials: credentialDescriptors(options.excludeCredentials),
    },
  });
  const response = credential.response;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : [],
      authenticatorData: response.getAuthenticatorData
        ? toBase64url(response.getAuthenticatorData())
        : undefined,
      publicKeyAlgorithm: response.getPublicKeyAlgorithm
        ? response.getPublicKeyAlgorithm()
        : undefined,
      publicKey:
        response.getPublicKey && response.getPublicKey()
          ? toBase64url(response.getPublicKey())
          : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** navigator.credentials.get with the JSON options of the server; returns the JSON assertion. */
export async function getAssertion(options) {
  const credential = await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: fromBase64url(options.challenge),
      allowCredentials: credentialDescriptors(options.allowCredentials),
    },
  });
  const response = credential.response;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** A confirmation token for `target` ({action, applicationId?, keyId?, passkeyId?}). */
export async function confirmationToken(target) {
  const { confirmationId, options } = await api('POST', '/api/console/confirmations', {
    body: target,
  });
  const response = await getAssertion(options);
  const confirmed = await api(
    'POST',
    `/api/console/confirmations/${encodeURIComponent(confirmationId)}`,
    { body: { response } },
  );
  return confirmed.confirmationToken;
}

/**
 * Asks for passkey confirmation of an operation in a dialog, then runs `operation(token)` with
 * the token for the X-Passkey-Confirmation header. Errors stay in the dialog (retry or cancel).
 * Resolves to the operation's result, or null when the user cancels. `refusal(error)`, when
 * given, may word an error of the page's own (null: errorText's words).
 */
export function confirmed(description, target, operation, refusal) {
  const dialog = $('#confirm-dialog');
  const form = $('#confirm-form');
  const errorBox = $('#confirm-error');
  $('#confirm-text').textContent = description;
  say(errorBox, '');
  return new Promise((resolve) => {
    let working = false;
    const finish = (result) => {
      form.onsubmit = null;
      $('#confirm-cancel').onclick = null;
      dialog.onclose = null;
      dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(result);
    };
    form.onsubmit = async (event) => {
      event.preventDefault();
      say(errorBox, '');
      working = true;
      await busy(form, async () => {
        try {
          const token = await confirmationToken(target);
          finish(await operation(token));
        } catch (error) {
          say(errorBox, refusal?.(error) ?? errorText(error), 'error');
        } finally {
          working = false;
        }
      });
    };
    // Escape closes the dialog, but not while the operation is under way: its outcome must show.
    dialog.oncancel = (event) => {
      if (working) event.preventDefault();
    };
    $('#confirm-cancel').onclick = () => finish(null);
    dialog.onclose = () => finish(null);
    dialog.showModal();
    $('#confirm-go').focus();
  });
}

/** The header carrying a confirmation token. */
export const confirmationHeader = (token) => ({ 'X-Passkey-Confirmation': token });
