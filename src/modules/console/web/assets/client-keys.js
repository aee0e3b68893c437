// The Settings tab's keys of a private_key_jwt client (docs/console.md, "The Settings tab"): the
// form's fields (a pasted public JWK Set or a jwks_uri) and the registered keys, shown as kid,
// kty and alg only, written as text. What is pasted is checked here before anything is sent, so
// a private key pasted by mistake never leaves the browser; the API checks it all again.
import { $, el, fillTable, t } from './core.js';

/** The members that make a JWK private or symmetric (the API refuses the same). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const MAX_KEYS = 10;

/** A pasted or typed key setting the page refuses, with the words to show. */
export class KeysProblem extends Error {}

/** Shows the keys fieldset while `private_key_jwt` is chosen, and the field of the chosen source. */
export function showKeysFields(form) {
  const keyed = form.elements.clientAuthMethod.value === 'private_key_jwt';
  const fieldset = $('#set-keys');
  fieldset.hidden = !keyed;
  fieldset.disabled = !keyed;
  const byUri = form.elements.keySource.value === 'jwksUri';
  $('#set-jwks-field').hidden = byUri;
  $('#set-jwks-uri-field').hidden = !byUri;
}

/** Fills the keys fields from the application: the source it uses, its jwks_uri; no JWKS text. */
export function fillKeysFields(form, app) {
  const keyed = app.clientAuthMethod === 'private_key_jwt';
  form.elements.keySource.value = keyed && app.jwksUri ? 'jwksUri' : 'jwks';
  form.elements.jwks.value = '';
  form.elements.jwksUri.value = (keyed && app.jwksUri) || '';
  showKeysFields(form);
}

/**
 * The key fields a settings body sends, `{}` when the keys stay as registered: `{jwks}` for a
 * pasted set that differs from the registered one, `{jwksUri}` for another URL. Throws
 * KeysProblem for what the page refuses (not JSON, not a key set, private key material, not
 * https, no keys at all).
 */
export function keysFromForm(form, app) {
  if (form.elements.clientAuthMethod.value !== 'private_key_jwt') return {};
  const registered = app.clientAuthMethod === 'private_key_jwt';
  if (form.elements.keySource.value === 'jwksUri') {
    const uri = form.elements.jwksUri.value.trim();
    if (uri === '') throw new KeysProblem(t('console.settings.clientKeys.missing'));
    if (!/^https:\/\/[^/?#]/i.test(uri)) {
      throw new KeysProblem(t('console.settings.clientKeys.notHttps'));
    }
    return registered && uri === app.jwksUri ? {} : { jwksUri: uri };
  }
  const text = form.elements.jwks.value.trim();
  if (text === '') {
    if (registered && app.jwks) return {};
    throw new KeysProblem(t('console.settings.clientKeys.missing'));
  }
  const jwks = parseJwks(text);
  return registered && canonical(jwks) === canonical(app.jwks) ? {} : { jwks };
}

function parseJwks(text) {
  let jwks;
  try {
    jwks = JSON.parse(text);
  } catch {
    throw new KeysProblem(t('console.settings.clientKeys.invalidJson'));
  }
  const keys = jwks !== null && typeof jwks === 'object' ? jwks.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_KEYS) {
    throw new KeysProblem(t('console.settings.clientKeys.notJwks'));
  }
  keys.forEach((key, index) => {
    if (key === null || typeof key !== 'object') return; // the API names what is wrong
    const members = PRIVATE_MEMBERS.filter((name) => Object.hasOwn(key, name));
    if (key.kty === 'oct' || members.length > 0) {
      throw new KeysProblem(
        t('console.settings.clientKeys.privateKey', {
          index: index + 1,
          members: key.kty === 'oct' ? 'kty oct' : members.join(', '),
        }),
      );
    }
  });
  return jwks;
}

/** A key set as one string, each key's members sorted (as the API compares them). */
function canonical(jwks) {
  if (!jwks || !Array.isArray(jwks.keys)) return null;
  return JSON.stringify(
    jwks.keys.map((key) =>
      Object.fromEntries(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ),
  );
}

/** The registered keys of a private_key_jwt client: kid, kty and alg of each, or its jwks_uri. */
export function showRegisteredKeys(app) {
  const keyed = app.clientAuthMethod === 'private_key_jwt';
  $('#client-keys').hidden = !keyed;
  if (!keyed) return;
  const byUri = Boolean(app.jwksUri);
  $('#client-jwks-uri-line').hidden = !byUri;
  $('#client-jwks-uri').textContent = app.jwksUri ?? '';
  const table = $('#client-keys-table');
  table.closest('.table-wrap').hidden = byUri;
  const muted = (text) => el('span', { class: 'muted' }, text);
  const rows = (app.jwks?.keys ?? []).map((key) =>
    el(
      'tr',
      {},
      el(
        'td',
        {},
        typeof key.kid === 'string'
          ? el('code', {}, key.kid)
          : muted(t('console.settings.clientKeys.noKid')),
      ),
      el('td', {}, String(key.kty ?? '')),
      el(
        'td',
        {},
        typeof key.alg === 'string' ? key.alg : muted(t('console.settings.clientKeys.anyAlg')),
      ),
    ),
  );
  fillTable(table, rows, '');
}
