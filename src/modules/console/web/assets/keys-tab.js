// The API access tab: the key table and create / rotate / revoke / delete, each confirmed with
// a passkey (docs/contract/api-keys.md#key-lifecycle). A new key's plaintext is shown once.
import {
  $,
  api,
  confirmationHeader,
  confirmed,
  el,
  errorText,
  fillTable,
  formatList,
  formValues,
  rich,
  say,
  showSecret,
  t,
  when,
} from './core.js';

export async function showApiAccess(ctx) {
  wireCreateForm(ctx);
  await loadKeys(ctx);
}

async function loadKeys(ctx) {
  try {
    const keys = await api('GET', `${ctx.base}/keys`);
    fillTable(
      $('#keys-table'),
      keys.map((key) => keyRow(ctx, key)),
      t('console.keys.empty'),
    );
  } catch (error) {
    say('#keys-status', errorText(error), 'error');
  }
}

/** The status column (KeyView.status: active, grace_period, revoked, expired). */
function statusBadge(key) {
  switch (key.status) {
    case 'active':
      return el('span', { class: 'badge ok' }, t('console.keys.active'));
    case 'grace_period':
      return el(
        'span',
        {},
        el('span', { class: 'badge warn' }, t('console.keys.grace')),
        ' ',
        el(
          'span',
          { class: 'muted' },
          rich('console.keys.graceUntil', {}, { time: () => when(key.graceUntil) }),
        ),
      );
    case 'revoked':
      return el(
        'span',
        { class: 'badge off' },
        rich('console.keys.revoked', {}, { time: () => when(key.revokedAt, '') }),
      );
    case 'expired':
      return el('span', { class: 'badge off' }, t('console.keys.expired'));
    default:
      return el('span', { class: 'badge' }, key.status);
  }
}

function keyRow(ctx, key) {
  const actions = [];
  if (key.status === 'active') {
    actions.push(button(t('console.keys.rotate'), 'secondary', () => rotate(ctx, key)));
  }
  if (key.status === 'active' || key.status === 'grace_period') {
    actions.push(button(t('console.keys.revoke'), 'danger', () => revoke(ctx, key)));
  }
  actions.push(button(t('console.common.delete'), 'danger', () => remove(ctx, key)));
  return el(
    'tr',
    { 'data-key-id': key.id },
    el('td', {}, el('strong', {}, key.name), el('div', {}, el('code', {}, key.prefix), '…')),
    el(
      'td',
      { class: 'scopes' },
      key.scopes.length > 0
        ? key.scopes.map((scope) => el('code', {}, scope))
        : el('span', { class: 'muted' }, t('console.common.none')),
    ),
    el('td', { class: 'status' }, statusBadge(key)),
    el('td', {}, when(key.lastUsedAt)),
    el('td', {}, when(key.createdAt)),
    el('td', { class: 'actions' }, actions),
  );
}

function button(label, kind, onClick) {
  return el('button', { type: 'button', class: `small ${kind}`, onclick: onClick }, label);
}

function wireCreateForm(ctx) {
  const form = $('#create-key');
  const open = $('#create-key-open');
  const toggle = (show) => {
    form.hidden = !show;
    open.setAttribute('aria-expanded', String(show));
    if (show) $('#key-name').focus();
  };
  open.addEventListener('click', () => toggle(form.hidden));
  $('#create-key-cancel').addEventListener('click', () => {
    toggle(false);
    open.focus();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { name, scopes } = formValues(form);
    const created = await confirmed(
      t('console.keys.confirmCreate', { name, count: scopes.length, scopes: formatList(scopes) }),
      { action: 'key.create', applicationId: ctx.id },
      (token) =>
        api('POST', `${ctx.base}/keys`, {
          body: { name, scopes },
          headers: confirmationHeader(token),
        }),
    );
    if (!created) return;
    form.reset();
    toggle(false);
    say('#keys-status', t('console.keys.created', { name: created.key.name }));
    showSecret('new-key', created.plaintext);
    await loadKeys(ctx);
  });
}

async function rotate(ctx, key) {
  const rotated = await confirmed(
    t('console.keys.confirmRotate', { name: key.name, prefix: key.prefix }),
    { action: 'key.rotate', applicationId: ctx.id, keyId: key.id },
    (token) =>
      api('POST', `${ctx.base}/keys/${key.id}/rotate`, { headers: confirmationHeader(token) }),
  );
  if (!rotated) return;
  say('#keys-status', t('console.keys.rotated', { name: key.name }));
  showSecret('new-key', rotated.plaintext);
  await loadKeys(ctx);
}

async function revoke(ctx, key) {
  const revoked = await confirmed(
    t('console.keys.confirmRevoke', { name: key.name, prefix: key.prefix }),
    { action: 'key.revoke', applicationId: ctx.id, keyId: key.id },
    (token) =>
      api('POST', `${ctx.base}/keys/${key.id}/revoke`, { headers: confirmationHeader(token) }),
  );
  if (!revoked) return;
  say('#keys-status', t('console.keys.revokedDone', { name: key.name }));
  await loadKeys(ctx);
}

async function remove(ctx, key) {
  const done = await confirmed(
    t('console.keys.confirmDelete', { name: key.name, prefix: key.prefix }),
    { action: 'key.delete', applicationId: ctx.id, keyId: key.id },
    async (token) => {
      await api('DELETE', `${ctx.base}/keys/${key.id}`, { headers: confirmationHeader(token) });
      return true;
    },
  );
  if (!done) return;
  say('#keys-status', t('console.keys.deleted', { name: key.name }));
  await loadKeys(ctx);
}
