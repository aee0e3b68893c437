// The Audit log tab: who changed what in the application, newest first.
import { $, api, el, errorText, fillTable, say, t, when } from './core.js';

export async function showAudit(ctx) {
  const state = { entries: [], next: null };
  $('#audit-more').addEventListener('click', () => void loadAudit(ctx, state));
  await loadAudit(ctx, state);
}

async function loadAudit(ctx, state) {
  const query = new URLSearchParams({ limit: '50' });
  if (state.next) query.set('before', String(state.next));
  try {
    const page = await api('GET', `${ctx.base}/audit-log?${query}`);
    state.entries = [...state.entries, ...page.entries];
    state.next = page.next;
    fillTable(
      $('#audit-table'),
      state.entries.map((entry) =>
        el(
          'tr',
          {},
          el('td', {}, when(entry.createdAt)),
          el('td', {}, entry.actor?.username ?? t('console.audit.unknown')),
          el('td', {}, el('code', {}, entry.action)),
          el('td', {}, describeTarget(entry)),
          el('td', {}, entry.ip ?? ''),
        ),
      ),
      t('console.audit.empty'),
    );
    $('#audit-more').hidden = !state.next;
  } catch (error) {
    say('#audit-status', errorText(error), 'error');
  }
}

function describeTarget(entry) {
  const target =
    typeof entry.target === 'string' || entry.target == null
      ? (entry.target ?? '')
      : JSON.stringify(entry.target);
  const name = entry.details && typeof entry.details.name === 'string' ? entry.details.name : '';
  return name ? t('console.audit.targetNamed', { target, name }) : target;
}
