import { EVENT_TYPES } from '../../../events/event-types';
import { API_SCOPES } from '../../../keys/scopes';
import { GROUP_CODES } from '../../../users/groups';
import { html, Html } from '../../../../common/http/html';
import { alertBox, consoleLayout, dataTable, secretBlock } from './layout';

/** The tabs of an application, in order; `admin` ones are hidden from viewers by the script. */
export const APPLICATION_TABS = [
  { id: 'overview', label: 'Overview', admin: false },
  { id: 'users', label: 'Users', admin: false },
  { id: 'events', label: 'Events', admin: false },
  { id: 'settings', label: 'Settings', admin: true },
  { id: 'api-access', label: 'API access', admin: true },
  { id: 'webhooks', label: 'Webhooks', admin: true },
  { id: 'members', label: 'Members', admin: true },
  { id: 'audit', label: 'Audit log', admin: true },
] as const;

/**
 * GET /console/applications/:id. The tabs are links to #overview, #users, … so the browser's
 * history, a reload and the keyboard all work; the script shows the one in the URL's hash.
 */
export function applicationPage(applicationId: number): string {
  const tabs = APPLICATION_TABS.map(
    (tab) =>
      html`<li ${tab.admin ? html`data-admin-only hidden` : html``}>
        <a href="#${tab.id}" id="tab-link-${tab.id}" data-tab="${tab.id}">${tab.label}</a>
      </li>`,
  );
  return consoleLayout({
    title: 'Application',
    script: 'application',
    section: 'applications',
    body: html`<main class="wide" id="application" data-application-id="${applicationId}" hidden>
      <p class="breadcrumb"><a href="/console">Applications</a> /</p>
      <div class="page-head">
        <h1 id="app-title">Application</h1>
        <span class="badge" id="app-role"></span>
      </div>
      <nav aria-label="Application sections">
        <ul class="tabs">
          ${tabs}
        </ul>
      </nav>
      ${alertBox('app-status')} ${overview} ${users} ${events} ${settings} ${apiAccess} ${webhooks}
      ${members} ${audit}
    </main>`,
  });
}

function tabPanel(id: string, body: Html): Html {
  return html`<section id="tab-${id}" aria-labelledby="tab-link-${id}" hidden>${body}</section>`;
}

const overview = tabPanel(
  'overview',
  html`<h2 class="visually-hidden">Overview</h2>
    <div class="stats" id="stats">
      <div class="stat">
        <span class="value" data-stat="totalUsers">–</span><span class="label">Users</span>
      </div>
      <div class="stat">
        <span class="value" data-stat="totalAuths">–</span><span class="label">Authorizations</span>
      </div>
      <div class="stat">
        <span class="value" data-stat="activeUsers30d">–</span
        ><span class="label">Active users, 30 days</span>
      </div>
      <div class="stat">
        <span class="value" data-stat="newUsers30d">–</span
        ><span class="label">New users, 30 days</span>
      </div>
    </div>
    <section class="panel chart" aria-labelledby="chart-title">
      <h2 id="chart-title">Authorizations per day, last 30 days (UTC)</h2>
      <div id="chart"></div>
    </section>
    <section class="panel" aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <dl class="details" id="app-details"></dl>
    </section>`,
);

const groupOptions = GROUP_CODES.map((code) => html`<option value="${code}">${code}</option>`);

const users = tabPanel(
  'users',
  html`<h2 class="visually-hidden">Users</h2>
    <form class="panel filters" id="users-filter" role="search">
      <div>
        <label for="users-keyword">Search</label>
        <input type="search" id="users-keyword" name="keyword" placeholder="Username or email" />
      </div>
      <div>
        <label for="users-group">Group</label>
        <select id="users-group" name="group">
          <option value="">Any group</option>
          ${groupOptions}
        </select>
      </div>
      <div>
        <label for="users-enabled">Status</label>
        <select id="users-enabled" name="enabled">
          <option value="">Any status</option>
          <option value="true">Enabled</option>
          <option value="false">Disabled</option>
        </select>
      </div>
      <button type="submit">Apply</button>
    </form>
    ${alertBox('users-status')}
    ${dataTable('users-table', 'Users of the application', [
      'User',
      'Group',
      'Status',
      'Authorizations',
      'Last authorization',
      'Actions',
    ])}
    <div class="pager">
      <button type="button" class="secondary" id="users-prev">Previous</button>
      <span id="users-page" class="muted" aria-live="polite"></span>
      <button type="button" class="secondary" id="users-next">Next</button>
    </div>`,
);

const eventOptions = EVENT_TYPES.map((type) => html`<option value="${type}">${type}</option>`);

const events = tabPanel(
  'events',
  html`<h2 class="visually-hidden">Events</h2>
    <form class="panel filters" id="events-filter">
      <div>
        <label for="events-type">Event type</label>
        <select id="events-type" name="eventType">
          <option value="">All types</option>
          ${eventOptions}
        </select>
      </div>
      <button type="submit">Apply</button>
    </form>
    ${alertBox('events-status')}
    ${dataTable('events-table', 'Authorization events, newest first', [
      'Time',
      'Event',
      'User',
      'Scope',
      'Status',
    ])}
    <button type="button" class="secondary" id="events-more" hidden>Load older events</button>`,
);

const settings = tabPanel(
  'settings',
  html`<section class="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      ${alertBox('settings-status')}
      <form id="settings-form">
        <label for="set-name">Name</label>
        <input type="text" id="set-name" name="name" required maxlength="100" />
        <label for="set-description">Description</label>
        <input type="text" id="set-description" name="description" maxlength="500" />
        <label for="set-home">Home page URL</label>
        <input type="url" id="set-home" name="homeUrl" />
        <label for="set-logo">Logo URL</label>
        <input type="url" id="set-logo" name="logo" />
        <label for="set-redirects">Redirect URIs</label>
        <textarea
          id="set-redirects"
          name="redirectUris"
          aria-describedby="set-redirects-hint"
        ></textarea>
        <p class="hint" id="set-redirects-hint">
          One per line: https, http on loopback, or an app scheme (com.example.app:/cb); exact match
          at sign-in (any port on 127.0.0.1 or [::1] for public clients).
        </p>
        <label for="set-logout-redirects">Post-logout redirect URIs</label>
        <textarea
          id="set-logout-redirects"
          name="postLogoutRedirectUris"
          aria-describedby="set-logout-redirects-hint"
        ></textarea>
        <p class="hint" id="set-logout-redirects-hint">
          One per line; where sign-out may return the user (exact match). Empty for none.
        </p>
        <label for="set-upstreams">Required upstream providers</label>
        <input
          type="text"
          id="set-upstreams"
          name="requiredUpstreams"
          aria-describedby="set-upstreams-hint"
        />
        <p class="hint" id="set-upstreams-hint">
          Provider ids, separated by commas: a user must have bound one of them to sign in here.
          Empty for none.
        </p>
        <label for="set-auth">Client authentication</label>
        <select id="set-auth" name="clientAuthMethod">
          <option value="secret">secret (server-side client)</option>
          <option value="none">none (public client, PKCE)</option>
        </select>
        <fieldset>
          <legend>Options</legend>
          <label class="inline"><input type="checkbox" name="enabled" /> Enabled</label>
          <label class="inline"><input type="checkbox" name="isPublic" /> Public</label>
          <label class="inline"
            ><input type="checkbox" name="requireVerifiedEmail" /> Require a verified email</label
          >
          <label class="inline"
            ><input type="checkbox" name="signUpEnabled" /> Offer "Create an account" on the login
            page</label
          >
        </fieldset>
        <button type="submit">Save settings</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="client-title">
      <h2 id="client-title">Client credentials</h2>
      <dl class="details">
        <dt>Client id</dt>
        <dd><code id="client-id"></code></dd>
      </dl>
      ${alertBox('secret-status')} ${secretBlock('client-secret', 'New client secret')}
      <button type="button" class="secondary" id="reset-secret">Reset client secret</button>
    </section>
    <section class="panel" id="danger-zone" aria-labelledby="danger-title" hidden>
      <h2 id="danger-title">Delete application</h2>
      <p>
        Deleting removes the application, its keys, users' relations and events. It cannot be
        undone.
      </p>
      ${alertBox('delete-status')}
      <button type="button" class="danger" id="delete-app">Delete application</button>
    </section>`,
);

const scopeBoxes = API_SCOPES.map(
  (scope) =>
    html`<label class="inline"
      ><input type="checkbox" name="scopes" value="${scope}" /> <code>${scope}</code></label
    >`,
);

const apiAccess = tabPanel(
  'api-access',
  html`<section class="panel" aria-labelledby="keys-title">
    <div class="page-head">
      <h2 id="keys-title">API keys</h2>
      <button type="button" id="create-key-open" aria-controls="create-key" aria-expanded="false">
        Create key
      </button>
    </div>
    <p class="muted">
      Keys let your server call the application API. Keep them on servers only. Every change here is
      confirmed with your passkey. A rotated key keeps working for 24 hours.
    </p>
    ${alertBox('keys-status')} ${secretBlock('new-key', 'Your new API key')}
    <form id="create-key" class="subpanel" aria-labelledby="create-key-title" hidden>
      <h3 id="create-key-title">New key</h3>
      <label for="key-name">Name</label>
      <input
        type="text"
        id="key-name"
        name="name"
        required
        maxlength="100"
        placeholder="production"
      />
      <fieldset>
        <legend>Scopes</legend>
        ${scopeBoxes}
      </fieldset>
      <button type="submit">Create key</button>
      <button type="button" class="secondary" id="create-key-cancel">Cancel</button>
    </form>
    ${dataTable('keys-table', 'API keys', [
      'Name and prefix',
      'Scopes',
      'Status',
      'Last used',
      'Created',
      'Actions',
    ])}
  </section>`,
);

/** One checkbox per event type; none checked means every type. */
const eventTypeBoxes = (prefix: string): Html[] =>
  EVENT_TYPES.map(
    (type) =>
      html`<label class="inline"
        ><input type="checkbox" name="eventTypes" value="${type}" id="${prefix}-${type}" />
        <code>${type}</code></label
      >`,
  );

const webhooks = tabPanel(
  'webhooks',
  html`<section class="panel" aria-labelledby="webhooks-title">
      <div class="page-head">
        <h2 id="webhooks-title">Webhook endpoints</h2>
        <button
          type="button"
          id="webhook-add-open"
          aria-controls="webhook-add"
          aria-expanded="false"
        >
          Add endpoint
        </button>
      </div>
      <p class="muted">
        The application's events are pushed to these URLs, each signed with the endpoint's secret
        (Standard Webhooks). Adding an endpoint, changing its URL, rotating its secret, replaying
        and deleting are confirmed with your passkey.
      </p>
      ${alertBox('webhooks-status')}
      ${secretBlock(
        'webhook-secret',
        'Signing secret',
        'Copy it now into your receiver: it cannot be shown again. Verify every request with it.',
      )}
      <form id="webhook-add" class="subpanel" aria-labelledby="webhook-add-title" hidden>
        <h3 id="webhook-add-title">New endpoint</h3>
        <label for="webhook-url">URL</label>
        <input
          type="url"
          id="webhook-url"
          name="url"
          required
          maxlength="2048"
          placeholder="https://example.com/webhooks"
        />
        <label for="webhook-description">Description</label>
        <input type="text" id="webhook-description" name="description" maxlength="200" />
        <fieldset>
          <legend>Event types</legend>
          ${eventTypeBoxes('webhook-add')}
          <p class="hint">None checked: every type, including types added later.</p>
        </fieldset>
        <button type="submit">Add endpoint</button>
        <button type="button" class="secondary" id="webhook-add-cancel">Cancel</button>
      </form>
      <form id="webhook-edit" class="subpanel" aria-labelledby="webhook-edit-title" hidden>
        <h3 id="webhook-edit-title">Edit endpoint</h3>
        <label for="webhook-edit-url">URL</label>
        <input
          type="url"
          id="webhook-edit-url"
          name="url"
          required
          maxlength="2048"
          aria-describedby="webhook-edit-url-hint"
        />
        <p class="hint" id="webhook-edit-url-hint">A new URL is confirmed with your passkey.</p>
        <label for="webhook-edit-description">Description</label>
        <input type="text" id="webhook-edit-description" name="description" maxlength="200" />
        <fieldset>
          <legend>Event types</legend>
          ${eventTypeBoxes('webhook-edit')}
          <p class="hint">None checked: every type.</p>
        </fieldset>
        <button type="submit">Save endpoint</button>
        <button type="button" class="secondary" id="webhook-edit-cancel">Cancel</button>
      </form>
      ${dataTable('webhooks-table', 'Webhook endpoints', [
        'Endpoint',
        'Event types',
        'Status',
        'Delivery',
        'Actions',
      ])}
    </section>
    <section class="panel" id="webhook-log" aria-labelledby="webhook-log-title" hidden>
      <div class="page-head">
        <h2 id="webhook-log-title">Delivery log</h2>
        <button type="button" class="secondary" id="webhook-log-refresh">Refresh</button>
      </div>
      <p class="muted">
        <span id="webhook-log-url" class="mono"></span>: the last 100 attempts, newest first.
      </p>
      ${alertBox('webhook-log-status')}
      <form
        id="webhook-replay"
        class="subpanel filters replay"
        aria-describedby="webhook-replay-hint"
      >
        <div>
          <label for="replay-event">Replay from event id</label>
          <input type="number" id="replay-event" name="fromEventId" min="1" step="1" />
        </div>
        <div>
          <label for="replay-time">or from date and time</label>
          <input type="datetime-local" id="replay-time" name="fromTime" step="1" />
        </div>
        <button type="submit">Replay</button>
        <p class="hint" id="webhook-replay-hint">
          The endpoint goes back to just before that event or time and receives the events from
          there again, in order, with their original webhook-id.
        </p>
      </form>
      ${dataTable('webhook-deliveries', 'Delivery attempts, newest first', [
        'Time',
        'Kind',
        'Event',
        'Result',
        'Latency',
        'Next retry',
        'Actions',
      ])}
    </section>`,
);

const members = tabPanel(
  'members',
  html`<section class="panel" aria-labelledby="members-title">
    <h2 id="members-title">Console access</h2>
    <p class="muted">
      Who may use this console for the application. These roles are not the users' groups: an API
      key cannot give or take them. The owner gives and removes admins, admins give and remove
      viewers; every change is confirmed with your passkey.
    </p>
    ${alertBox('members-status')}
    <form id="grant-member" class="subpanel" aria-labelledby="grant-member-title">
      <h3 id="grant-member-title">Give access to a user of the application</h3>
      <label for="member-login">Username or email</label>
      <input type="text" id="member-login" name="login" required maxlength="320" />
      <label for="member-role">Role</label>
      <select id="member-role" name="role">
        <option value="viewer">Viewer: read only</option>
        <option value="admin">Admin: settings, keys, users, viewers</option>
      </select>
      <button type="submit">Give access</button>
    </form>
    ${dataTable('members-table', 'Console access', [
      'User',
      'Role',
      'Given by',
      'Since',
      'Actions',
    ])}
  </section>`,
);

const audit = tabPanel(
  'audit',
  html`<h2 class="visually-hidden">Audit log</h2>
    ${alertBox('audit-status')}
    ${dataTable('audit-table', 'Audit log, newest first', [
      'Time',
      'Who',
      'Action',
      'Target',
      'Address',
    ])}
    <button type="button" class="secondary" id="audit-more" hidden>Load older entries</button>`,
);
