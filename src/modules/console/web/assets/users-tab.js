// The Users and Events tabs: the same filters, paging and results as /api/v1/app (the console
// API reuses those services).
import { $, api, el, errorText, fillTable, formValues, say, t, when } from './core.js';

const GROUPS = ['admin', 'viewer', 't0', 't1', 't2', 't3', 't4', 't5'];

export async function showUsers(ctx) {
  const state = { page: 1, pageSize: 20, filter: {} };
  const form = $('#users-filter');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.filter = formValues(form);
    state.page = 1;
    void loadUsers(ctx, state);
  });
  $('#users-prev').addEventListener('click', () => {
    state.page -= 1;
    void loadUsers(ctx, state);
  });
  $('#users-next').addEventListener('click', () => {
    state.page += 1;
    void loadUsers(ctx, state);
  });
  await loadUsers(ctx, state);
}

async function loadUsers(ctx, state) {
  const query = new URLSearchParams({ page: String(state.page), pageSize: String(state.pageSize) });
  for (const [name, value] of Object.entries(state.filter)) if (value) query.set(name, value);
  try {
    const result = await api('GET', `${ctx.base}/users?${query}`);
    fillTable(
      $('#users-table'),
      result.items.map((user) => userRow(ctx, state, user)),
      t('console.users.empty'),
    );
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
    $('#users-page').textContent = t('console.users.page', {
      page: result.page,
      pages,
      total: result.total,
    });
    $('#users-prev').disabled = result.page <= 1;
    $('#users-next').disabled = result.page >= pages;
  } catch (error) {
    say('#users-status', errorText(error), 'error');
  }
}

function userRow(ctx, state, user) {
  const label = user.nickname ? `${user.username} (${user.nickname})` : user.username;
  const reload = () => loadUsers(ctx, state);
  // The owner's own row: nobody may take admin away from the owner or disable them.
  const editable = ctx.isAdmin && !(ctx.isOwner && user.userId === ctx.session.user.id);
  return el(
    'tr',
    {},
    el('td', {}, el('strong', {}, label), el('div', { class: 'muted' }, user.email)),
    el('td', { class: 'actions' }, editable ? groupSelect(ctx, user, reload) : user.group),
    el(
      'td',
      {},
      el(
        'span',
        { class: user.enabled ? 'badge ok' : 'badge off' },
        t(user.enabled ? 'console.common.enabled' : 'console.common.disabled'),
      ),
    ),
    el('td', {}, user.authCount),
    el('td', {}, when(user.lastAuthAt)),
    el('td', { class: 'actions' }, editable ? userActions(ctx, user, reload) : null),
  );
}

function groupSelect(ctx, user, reload) {
  const select = el(
    'select',
    { 'aria-label': t('console.users.groupOf', { username: user.username }) },
    GROUPS.map((code) => el('option', { value: code, selected: code === user.group }, code)),
  );
  select.addEventListener('change', async () => {
    const group = select.value;
    await change(
      ctx,
      user,
      { group },
      t('console.users.inGroup', { username: user.username, group }),
    );
    await reload();
  });
  return select;
}

function userActions(ctx, user, reload) {
  const toggle = el(
    'button',
    { type: 'button', class: 'small secondary' },
    t(user.enabled ? 'console.common.disable' : 'console.common.enable'),
  );
  toggle.addEventListener('click', async () => {
    const enabled = !user.enabled;
    await change(
      ctx,
      user,
      { enabled },
      t(enabled ? 'console.users.isEnabled' : 'console.users.isDisabled', {
        username: user.username,
      }),
    );
    await reload();
  });
  const offline = el(
    'button',
    { type: 'button', class: 'small secondary' },
    t('console.users.forceOffline'),
  );
  offline.addEventListener('click', async () => {
    try {
      const result = await api('POST', `${ctx.base}/users/${user.userId}/force-offline`);
      say(
        '#users-status',
        t('console.users.signedOut', { username: user.username, count: result.revokedTokens }),
      );
    } catch (error) {
      say('#users-status', errorText(error), 'error');
    }
  });
  return [toggle, offline];
}

async function change(ctx, user, body, done) {
  try {
    await api('PATCH', `${ctx.base}/users/${user.userId}`, { body });
    say('#users-status', done);
  } catch (error) {
    say('#users-status', errorText(error), 'error');
  }
}

// ---------------------------------------------------------------- Events

export async function showEvents(ctx) {
  const state = { eventType: '', items: [] };
  const form = $('#events-filter');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.eventType = formValues(form).eventType;
    state.items = [];
    void loadEvents(ctx, state);
  });
  $('#events-more').addEventListener('click', () => void loadEvents(ctx, state));
  await loadEvents(ctx, state);
}

async function loadEvents(ctx, state) {
  const query = new URLSearchParams({ limit: '50' });
  if (state.eventType) query.set('eventType', state.eventType);
  const last = state.items[state.items.length - 1];
  // createdAt plus the id: events sharing a timestamp are neither skipped nor repeated
  // across a page boundary (docs/events.md, keyset paging).
  if (last) {
    query.set('before', last.createdAt);
    query.set('beforeId', String(last.id));
  }
  try {
    const page = await api('GET', `${ctx.base}/events?${query}`);
    state.items = [...state.items, ...page.items];
    fillTable(
      $('#events-table'),
      state.items.map((event) =>
        el(
          'tr',
          {},
          el('td', {}, when(event.createdAt)),
          el('td', {}, el('code', {}, event.eventType)),
          el('td', {}, event.userId),
          el('td', {}, event.scope),
          el('td', {}, event.status),
        ),
      ),
      t('console.events.empty'),
    );
    $('#events-more').hidden = page.items.length < page.limit;
  } catch (error) {
    say('#events-status', errorText(error), 'error');
  }
}
