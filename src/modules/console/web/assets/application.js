// GET /console/applications/:id: the tabs of one application. Each tab's data is fetched the
// first time it is shown; the URL's hash (#users, #api-access, …) says which tab is open.
import { authorizationChart } from './chart.js';
import {
  $,
  $$,
  ApiError,
  api,
  el,
  errorText,
  formatNumber,
  requireSession,
  say,
  t,
  when,
} from './core.js';
import { showApiAccess } from './keys-tab.js';
import { showAudit } from './audit-tab.js';
import { showMembers } from './members-tab.js';
import { showSettings } from './settings-tab.js';
import { showEvents, showUsers } from './users-tab.js';
import { showWebhooks } from './webhooks-tab.js';

const ROLE_LABELS = {
  owner: 'console.roles.owner',
  admin: 'console.roles.admin',
  viewer: 'console.roles.viewer',
};
const ADMIN_TABS = new Set(['settings', 'api-access', 'webhooks', 'members', 'audit']);

async function start() {
  const session = await requireSession();
  const main = $('#application');
  const id = Number(main.dataset.applicationId);
  const ctx = { id, base: `/api/console/applications/${id}`, app: null, role: null, session };
  try {
    ctx.app = await api('GET', ctx.base);
  } catch (error) {
    showUnavailable(error);
    return;
  }
  ctx.role = ctx.app.role ?? (await roleFromList(id));
  ctx.isAdmin = ctx.role === 'owner' || ctx.role === 'admin';
  ctx.isOwner = ctx.role === 'owner';
  ctx.setApp = (app) => {
    ctx.app = { ...ctx.app, ...app };
    showTitle(ctx);
  };
  showTitle(ctx);
  $$('[data-admin-only]').forEach((item) => (item.hidden = !ctx.isAdmin));
  main.hidden = false;
  const shown = new Set();
  const showTab = () => {
    let tab = location.hash.slice(1) || 'overview';
    if (!$('#tab-' + tab) || (ADMIN_TABS.has(tab) && !ctx.isAdmin)) tab = 'overview';
    $$('[data-tab]').forEach((link) => {
      if (link.dataset.tab === tab) {
        link.setAttribute('aria-current', 'page');
        // On a phone the tab row scrolls: keep the open tab in sight.
        link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      } else {
        link.removeAttribute('aria-current');
      }
    });
    $$('#application > section').forEach((section) => (section.hidden = true));
    $('#tab-' + tab).hidden = false;
    if (!shown.has(tab)) {
      shown.add(tab);
      void TABS[tab](ctx);
    }
  };
  window.addEventListener('hashchange', showTab);
  window.addEventListener('resize', () =>
    $('[data-tab][aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
  );
  showTab();
}

const TABS = {
  overview: showOverview,
  users: showUsers,
  events: showEvents,
  settings: showSettings,
  'api-access': showApiAccess,
  webhooks: showWebhooks,
  members: showMembers,
  audit: showAudit,
};

async function roleFromList(id) {
  const apps = await api('GET', '/api/console/applications');
  return apps.find((app) => app.id === id)?.role ?? 'viewer';
}

function showTitle(ctx) {
  $('#app-title').textContent = ctx.app.name;
  document.title = t('console.layout.title', { title: ctx.app.name });
  $('#app-role').textContent = ROLE_LABELS[ctx.role] ? t(ROLE_LABELS[ctx.role]) : ctx.role;
}

function showUnavailable(error) {
  const main = $('#application');
  main.hidden = false;
  $('.tabs').hidden = true;
  const missing = error instanceof ApiError && error.status === 404;
  $('#app-title').textContent = t(
    missing ? 'console.application.notFound' : 'console.application.title',
  );
  say('#app-status', missing ? t('console.application.noRole') : errorText(error), 'error');
}

// ---------------------------------------------------------------- Overview

async function showOverview(ctx) {
  showDetails(ctx);
  try {
    const stats = await api('GET', `${ctx.base}/stats`);
    for (const node of $$('[data-stat]')) {
      node.textContent = formatNumber(stats[node.dataset.stat]);
    }
    $('#chart').replaceChildren(authorizationChart(stats.dailyAuthCounts));
  } catch (error) {
    say('#app-status', errorText(error), 'error');
  }
}

function showDetails(ctx) {
  const app = ctx.app;
  const none = () => el('span', { class: 'muted' }, t('console.common.none'));
  const rows = [
    ['console.common.description', app.description || none()],
    [
      'console.overview.homePage',
      app.homeUrl ? el('a', { href: app.homeUrl, rel: 'noopener' }, app.homeUrl) : none(),
    ],
    [
      'console.common.status',
      t(app.enabled ? 'console.common.enabled' : 'console.common.disabled'),
    ],
    ['console.common.created', when(app.createdAt)],
  ];
  if (app.clientId) rows.splice(1, 0, ['console.overview.clientId', el('code', {}, app.clientId)]);
  if (app.clientAuthMethod) rows.push(['console.overview.clientAuth', app.clientAuthMethod]);
  if (Array.isArray(app.redirectUris)) {
    rows.push(['console.common.redirectUris', app.redirectUris.join('\n') || none()]);
  }
  if (Array.isArray(app.postLogoutRedirectUris)) {
    rows.push([
      'console.overview.logoutRedirectUris',
      app.postLogoutRedirectUris.join('\n') || none(),
    ]);
  }
  $('#app-details').replaceChildren(
    ...rows.flatMap(([term, value]) => [el('dt', {}, t(term)), el('dd', {}, value)]),
  );
}

void start();
