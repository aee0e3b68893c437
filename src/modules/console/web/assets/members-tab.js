// The Members tab: who has console access. Console roles are not the users' groups (an API key
// cannot change them); the owner gives and withdraws admin, admins give and withdraw viewer, and
// every change is confirmed with a passkey.
import {
  $,
  api,
  busy,
  confirmationHeader,
  confirmed,
  el,
  errorText,
  fillTable,
  formValues,
  say,
  t,
  when,
} from './core.js';

const ROLE_LABELS = {
  owner: 'console.roles.owner',
  admin: 'console.roles.admin',
  viewer: 'console.roles.viewer',
};

export async function showMembers(ctx) {
  const form = $('#grant-member');
  $('#member-role option[value="admin"]').hidden = !ctx.isOwner;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(form, () => grant(ctx, form));
  });
  await loadMembers(ctx);
}

async function loadMembers(ctx) {
  try {
    const members = await api('GET', `${ctx.base}/members`);
    fillTable(
      $('#members-table'),
      members.map((member) =>
        el(
          'tr',
          {},
          el(
            'td',
            {},
            el('strong', {}, member.username),
            el('div', { class: 'muted' }, member.email),
          ),
          el('td', {}, ROLE_LABELS[member.role] ? t(ROLE_LABELS[member.role]) : member.role),
          el('td', {}, member.grantedBy?.username ?? ''),
          el('td', {}, member.grantedAt ? when(member.grantedAt) : ''),
          el('td', { class: 'actions' }, actions(ctx, member)),
        ),
      ),
      t('console.members.empty'),
    );
  } catch (error) {
    say('#members-status', errorText(error), 'error');
  }
}

/** The owner changes anyone; an admin only viewers (the API refuses the rest anyway). */
function actions(ctx, member) {
  if (member.role === 'owner' || (member.role === 'admin' && !ctx.isOwner)) return [];
  const buttons = [];
  if (ctx.isOwner) {
    const other = member.role === 'admin' ? 'viewer' : 'admin';
    buttons.push(
      el(
        'button',
        {
          type: 'button',
          class: 'small secondary',
          onclick: () => void setRole(ctx, member, other),
        },
        t(other === 'admin' ? 'console.members.makeAdmin' : 'console.members.makeViewer'),
      ),
    );
  }
  buttons.push(
    el(
      'button',
      { type: 'button', class: 'small danger', onclick: () => void withdraw(ctx, member) },
      t('console.members.remove'),
    ),
  );
  return buttons;
}

/** The form names a user of the application by username or email; the user list finds the id. */
async function grant(ctx, form) {
  const { login, role } = formValues(form);
  say('#members-status', '');
  try {
    const query = new URLSearchParams({ keyword: login, pageSize: '100' });
    const page = await api('GET', `${ctx.base}/users?${query}`);
    const wanted = login.toLowerCase();
    const user = page.items.find(
      (item) => item.username.toLowerCase() === wanted || item.email.toLowerCase() === wanted,
    );
    if (!user) {
      say('#members-status', t('console.members.noSuchUser'), 'error');
      return;
    }
    if (await setRole(ctx, { userId: user.userId, username: user.username }, role)) form.reset();
  } catch (error) {
    say('#members-status', errorText(error), 'error');
  }
}

async function setRole(ctx, member, role) {
  const done = await confirmed(
    t('console.members.confirmGrant', { username: member.username, role }),
    { action: 'console_role.grant', applicationId: ctx.id, targetUserId: member.userId, role },
    (token) =>
      api('PUT', `${ctx.base}/members/${member.userId}`, {
        body: { role },
        headers: confirmationHeader(token),
      }),
  );
  if (!done) return false;
  say('#members-status', t('console.members.granted', { username: member.username, role }));
  await loadMembers(ctx);
  return true;
}

async function withdraw(ctx, member) {
  const done = await confirmed(
    t('console.members.confirmRemove', { username: member.username, role: member.role }),
    {
      action: 'console_role.revoke',
      applicationId: ctx.id,
      targetUserId: member.userId,
      role: member.role,
    },
    async (token) => {
      await api('DELETE', `${ctx.base}/members/${member.userId}`, {
        headers: confirmationHeader(token),
      });
      return true;
    },
  );
  if (!done) return;
  say('#members-status', t('console.members.removed', { username: member.username }));
  await loadMembers(ctx);
}
