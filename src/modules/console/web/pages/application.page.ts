import { EVENT_TYPES } from '../../../events/event-types';
import { API_SCOPES } from '../../../keys/scopes';
import { GROUP_CODES } from '../../../users/groups';
import { html, Html } from '../../../../common/http/html';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import type { Translator } from '../../../../common/i18n/i18n';
import { alertBox, consoleLayout, dataTable, secretBlock } from './layout';

/** The tabs of an application, in order; `admin` ones are hidden from viewers by the script. */
export const APPLICATION_TABS = [
  { id: 'overview', label: 'console.application.tabs.overview', admin: false },
  { id: 'users', label: 'console.application.tabs.users', admin: false },
  { id: 'events', label: 'console.application.tabs.events', admin: false },
  { id: 'settings', label: 'console.application.tabs.settings', admin: true },
  { id: 'api-access', label: 'console.application.tabs.apiAccess', admin: true },
  { id: 'webhooks', label: 'console.application.tabs.webhooks', admin: true },
  { id: 'members', label: 'console.application.tabs.members', admin: true },
  { id: 'audit', label: 'console.application.tabs.audit', admin: true },
] as const;

/**
 * GET /console/applications/:id. The tabs are links to #overview, #users, … so the browser's
 * history, a reload and the keyboard all work; the script shows the one in the URL's hash.
 */
export function applicationPage(lang: PageLanguage, applicationId: number): string {
  const words = lang.translator();
  const { t } = words;
  const tabs = APPLICATION_TABS.map(
    (tab) =>
      html`<li ${tab.admin ? html`data-admin-only hidden` : html``}>
        <a href="#${tab.id}" id="tab-link-${tab.id}" data-tab="${tab.id}">${t(tab.label)}</a>
      </li>`,
  );
  return consoleLayout(lang, {
    title: t('console.application.title'),
    script: 'application',
    section: 'applications',
    body: html`<main class="wide" id="application" data-application-id="${applicationId}" hidden>
      <p class="breadcrumb"><a href="/console">${t('console.apps.title')}</a> /</p>
      <div class="page-head">
        <h1 id="app-title">${t('console.application.title')}</h1>
        <span class="badge" id="app-role"></span>
      </div>
      <nav aria-label="${t('console.application.sections')}">
        <ul class="tabs">
          ${tabs}
        </ul>
      </nav>
      ${alertBox('app-status')} ${overview(words)} ${users(words)} ${events(words)}
      ${settings(words)} ${apiAccess(words)} ${webhooks(words)} ${members(words)} ${audit(words)}
    </main>`,
  });
}

function tabPanel(id: string, body: Html): Html {
  return html`<section id="tab-${id}" aria-labelledby="tab-link-${id}" hidden>${body}</section>`;
}

function overview(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'overview',
    html`<h2 class="visually-hidden">${t('console.application.tabs.overview')}</h2>
      <div class="stats" id="stats">
        <div class="stat">
          <span class="value" data-stat="totalUsers">–</span
          ><span class="label">${t('console.overview.totalUsers')}</span>
        </div>
        <div class="stat">
          <span class="value" data-stat="totalAuths">–</span
          ><span class="label">${t('console.overview.totalAuths')}</span>
        </div>
        <div class="stat">
          <span class="value" data-stat="activeUsers30d">–</span
          ><span class="label">${t('console.overview.activeUsers')}</span>
        </div>
        <div class="stat">
          <span class="value" data-stat="newUsers30d">–</span
          ><span class="label">${t('console.overview.newUsers')}</span>
        </div>
      </div>
      <section class="panel chart" aria-labelledby="chart-title">
        <h2 id="chart-title">${t('console.overview.chartTitle')}</h2>
        <div id="chart"></div>
      </section>
      <section class="panel" aria-labelledby="details-title">
        <h2 id="details-title">${t('console.overview.details')}</h2>
        <dl class="details" id="app-details"></dl>
      </section>`,
  );
}

const groupOptions = GROUP_CODES.map((code) => html`<option value="${code}">${code}</option>`);

function users(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'users',
    html`<h2 class="visually-hidden">${t('console.application.tabs.users')}</h2>
      <form class="panel filters" id="users-filter" role="search">
        <div>
          <label for="users-keyword">${t('console.users.search')}</label>
          <input
            type="search"
            id="users-keyword"
            name="keyword"
            placeholder="${t('console.common.loginField')}"
          />
        </div>
        <div>
          <label for="users-group">${t('console.users.group')}</label>
          <select id="users-group" name="group">
            <option value="">${t('console.users.anyGroup')}</option>
            ${groupOptions}
          </select>
        </div>
        <div>
          <label for="users-enabled">${t('console.common.status')}</label>
          <select id="users-enabled" name="enabled">
            <option value="">${t('console.users.anyStatus')}</option>
            <option value="true">${t('console.common.enabled')}</option>
            <option value="false">${t('console.common.disabled')}</option>
          </select>
        </div>
        <button type="submit">${t('console.common.apply')}</button>
      </form>
      ${alertBox('users-status')}
      ${dataTable(t, 'users-table', 'console.users.caption', [
        'console.common.user',
        'console.users.group',
        'console.common.status',
        'console.users.authorizations',
        'console.users.lastAuth',
        'console.common.actions',
      ])}
      <div class="pager">
        <button type="button" class="secondary" id="users-prev">
          ${t('console.users.previous')}
        </button>
        <span id="users-page" class="muted" aria-live="polite"></span>
        <button type="button" class="secondary" id="users-next">${t('console.users.next')}</button>
      </div>`,
  );
}

const eventOptions = EVENT_TYPES.map((type) => html`<option value="${type}">${type}</option>`);

function events(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'events',
    html`<h2 class="visually-hidden">${t('console.application.tabs.events')}</h2>
      <form class="panel filters" id="events-filter">
        <div>
          <label for="events-type">${t('console.events.type')}</label>
          <select id="events-type" name="eventType">
            <option value="">${t('console.events.allTypes')}</option>
            ${eventOptions}
          </select>
        </div>
        <button type="submit">${t('console.common.apply')}</button>
      </form>
      ${alertBox('events-status')}
      ${dataTable(t, 'events-table', 'console.events.caption', [
        'console.common.time',
        'console.events.event',
        'console.common.user',
        'console.events.scope',
        'console.common.status',
      ])}
      <button type="button" class="secondary" id="events-more" hidden>
        ${t('console.events.more')}
      </button>`,
  );
}

function settings(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'settings',
    html`<section class="panel" aria-labelledby="settings-title">
        <h2 id="settings-title">${t('console.application.tabs.settings')}</h2>
        ${alertBox('settings-status')}
        <form id="settings-form">
          <label for="set-name">${t('console.common.name')}</label>
          <input type="text" id="set-name" name="name" required maxlength="100" />
          <label for="set-description">${t('console.common.description')}</label>
          <input type="text" id="set-description" name="description" maxlength="500" />
          <label for="set-home">${t('console.common.homeUrl')}</label>
          <input type="url" id="set-home" name="homeUrl" />
          <label for="set-logo">${t('console.settings.logo')}</label>
          <input type="url" id="set-logo" name="logo" />
          <label for="set-redirects">${t('console.common.redirectUris')}</label>
          <textarea
            id="set-redirects"
            name="redirectUris"
            aria-describedby="set-redirects-hint"
          ></textarea>
          <p class="hint" id="set-redirects-hint">${t('console.common.redirectHint')}</p>
          <label for="set-logout-redirects">${t('console.overview.logoutRedirectUris')}</label>
          <textarea
            id="set-logout-redirects"
            name="postLogoutRedirectUris"
            aria-describedby="set-logout-redirects-hint"
          ></textarea>
          <p class="hint" id="set-logout-redirects-hint">${t('console.settings.logoutHint')}</p>
          <label for="set-upstreams">${t('console.settings.upstreams')}</label>
          <input
            type="text"
            id="set-upstreams"
            name="requiredUpstreams"
            aria-describedby="set-upstreams-hint"
          />
          <p class="hint" id="set-upstreams-hint">${t('console.settings.upstreamsHint')}</p>
          <label for="set-auth">${t('console.overview.clientAuth')}</label>
          <select id="set-auth" name="clientAuthMethod">
            <option value="secret">${t('console.settings.authSecret')}</option>
            <option value="none">${t('console.settings.authNone')}</option>
            <option value="private_key_jwt">${t('console.settings.authPrivateKeyJwt')}</option>
          </select>
          ${clientKeysFields(words)}
          <label for="set-id-token-alg">${t('console.settings.idTokenAlg')}</label>
          <select
            id="set-id-token-alg"
            name="idTokenSignedResponseAlg"
            aria-describedby="set-id-token-alg-hint"
          >
            <option value="RS256">RS256</option>
            <option value="PS256">PS256</option>
            <option value="ES256">ES256</option>
            <option value="EdDSA">EdDSA (Ed25519)</option>
          </select>
          <p class="hint" id="set-id-token-alg-hint">${t('console.settings.idTokenAlgHint')}</p>
          ${backchannelFields(words)}
          <fieldset>
            <legend>${t('console.settings.options')}</legend>
            <label class="inline"
              ><input type="checkbox" name="enabled" /> ${t('console.common.enabled')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="isPublic" /> ${t('console.settings.public')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="requireVerifiedEmail" />
              ${t('console.settings.requireVerifiedEmail')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="signUpEnabled" /> ${t('console.settings.signUp')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="requirePushedAuthorizationRequests" />
              ${t('console.settings.requirePar')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="dpopBoundAccessTokens" />
              ${t('console.settings.requireDpop')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="deviceCodeGrant" />
              ${t('console.settings.deviceCodeGrant')}</label
            >
            <label for="set-profile">${t('console.settings.profile')}</label>
            <select id="set-profile" name="securityProfile">
              <option value="none">${t('console.settings.profileNone')}</option>
              <option value="fapi2">${t('console.settings.profileFapi2')}</option>
            </select>
          </fieldset>
          <button type="submit">${t('console.settings.save')}</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="backchannel-title">
        <h2 id="backchannel-title">${t('console.settings.backchannel.listTitle')}</h2>
        <p class="muted">${t('console.settings.backchannel.listLead')}</p>
        ${alertBox('backchannel-status')}
        ${dataTable(t, 'backchannel-logouts', 'console.settings.backchannel.listTitle', [
          'console.common.time',
          'console.settings.backchannel.status',
          'console.settings.backchannel.attempts',
          'console.settings.backchannel.lastAnswer',
          'console.settings.backchannel.nextAttempt',
        ])}
      </section>
      <section class="panel" aria-labelledby="client-title">
        <h2 id="client-title">${t('console.settings.clientTitle')}</h2>
        <dl class="details">
          <dt>${t('console.overview.clientId')}</dt>
          <dd><code id="client-id"></code></dd>
        </dl>
        ${registeredKeys(words)} ${alertBox('secret-status')}
        ${secretBlock(t, 'client-secret', 'console.settings.newSecret')}
        <button type="button" class="secondary" id="reset-secret">
          ${t('console.settings.resetSecret')}
        </button>
      </section>
      <section class="panel" id="danger-zone" aria-labelledby="danger-title" hidden>
        <h2 id="danger-title">${t('console.settings.deleteTitle')}</h2>
        <p>${t('console.settings.deleteText')}</p>
        ${alertBox('delete-status')}
        <button type="button" class="danger" id="delete-app">
          ${t('console.settings.deleteTitle')}
        </button>
      </section>`,
  );
}

/**
 * OpenID Connect Back-Channel Logout (docs/oidc.md): where logout tokens go, which a new address
 * needs the passkey for (the script asks), and `backchannel_logout_session_required`.
 */
function backchannelFields(words: Translator): Html {
  const { t } = words;
  return html`<label for="set-backchannel-uri">${t('console.settings.backchannel.uri')}</label>
    <input
      type="text"
      inputmode="url"
      id="set-backchannel-uri"
      name="backchannelLogoutUri"
      maxlength="2000"
      autocomplete="off"
      spellcheck="false"
      placeholder="https://example.com/backchannel-logout"
      aria-describedby="set-backchannel-uri-hint"
    />
    <p class="hint" id="set-backchannel-uri-hint">${t('console.settings.backchannel.uriHint')}</p>
    <label class="inline"
      ><input type="checkbox" name="backchannelLogoutSessionRequired" />
      ${t('console.settings.backchannel.sessionRequired')}</label
    >`;
}

/**
 * The keys of a `private_key_jwt` client (shown by the script while that method is chosen): a
 * pasted public JWK Set or a jwks_uri. Empty keeps the registered keys; the script checks what
 * is pasted before sending it (a private key never leaves the browser).
 */
function clientKeysFields(words: Translator): Html {
  const { t } = words;
  return html`<fieldset id="set-keys" aria-describedby="set-keys-lead" hidden disabled>
    <legend>${t('console.settings.clientKeys.legend')}</legend>
    <p class="hint" id="set-keys-lead">${t('console.settings.clientKeys.lead')}</p>
    <label class="inline"
      ><input type="radio" name="keySource" value="jwks" checked />
      ${t('console.settings.clientKeys.sourceJwks')}</label
    >
    <label class="inline"
      ><input type="radio" name="keySource" value="jwksUri" />
      ${t('console.settings.clientKeys.sourceUri')}</label
    >
    <div id="set-jwks-field">
      <label for="set-jwks">${t('console.settings.clientKeys.jwks')}</label>
      <textarea
        id="set-jwks"
        name="jwks"
        class="mono"
        rows="8"
        spellcheck="false"
        autocomplete="off"
        aria-describedby="set-jwks-hint"
      ></textarea>
      <p class="hint" id="set-jwks-hint">${t('console.settings.clientKeys.jwksHint')}</p>
    </div>
    <div id="set-jwks-uri-field" hidden>
      <label for="set-jwks-uri">${t('console.settings.clientKeys.jwksUri')}</label>
      <input
        type="text"
        inputmode="url"
        id="set-jwks-uri"
        name="jwksUri"
        maxlength="2000"
        autocomplete="off"
        spellcheck="false"
        placeholder="https://example.com/.well-known/jwks.json"
        aria-describedby="set-jwks-uri-hint"
      />
      <p class="hint" id="set-jwks-uri-hint">${t('console.settings.clientKeys.jwksUriHint')}</p>
    </div>
  </fieldset>`;
}

/** The registered keys of a `private_key_jwt` client: kid, kty and alg only, or its jwks_uri. */
function registeredKeys(words: Translator): Html {
  const { t } = words;
  return html`<div id="client-keys" hidden>
    <h3 id="client-keys-title">${t('console.settings.clientKeys.current')}</h3>
    <dl class="details" id="client-jwks-uri-line" hidden>
      <dt>${t('console.settings.clientKeys.fetchedFrom')}</dt>
      <dd><code id="client-jwks-uri"></code></dd>
    </dl>
    ${dataTable(t, 'client-keys-table', 'console.settings.clientKeys.current', [
      'console.settings.clientKeys.kid',
      'console.settings.clientKeys.kty',
      'console.settings.clientKeys.alg',
    ])}
  </div>`;
}

const scopeBoxes = API_SCOPES.map(
  (scope) =>
    html`<label class="inline"
      ><input type="checkbox" name="scopes" value="${scope}" /> <code>${scope}</code></label
    >`,
);

function apiAccess(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'api-access',
    html`<section class="panel" aria-labelledby="keys-title">
      <div class="page-head">
        <h2 id="keys-title">${t('console.keys.title')}</h2>
        <button type="button" id="create-key-open" aria-controls="create-key" aria-expanded="false">
          ${t('console.keys.create')}
        </button>
      </div>
      <p class="muted">${t('console.keys.lead')}</p>
      ${alertBox('keys-status')} ${secretBlock(t, 'new-key', 'console.keys.newKey')}
      <form id="create-key" class="subpanel" aria-labelledby="create-key-title" hidden>
        <h3 id="create-key-title">${t('console.keys.newTitle')}</h3>
        <label for="key-name">${t('console.common.name')}</label>
        <input
          type="text"
          id="key-name"
          name="name"
          required
          maxlength="100"
          placeholder="${t('console.keys.namePlaceholder')}"
        />
        <fieldset>
          <legend>${t('console.keys.scopes')}</legend>
          ${scopeBoxes}
        </fieldset>
        <button type="submit">${t('console.keys.create')}</button>
        <button type="button" class="secondary" id="create-key-cancel">
          ${t('console.common.cancel')}
        </button>
      </form>
      ${dataTable(t, 'keys-table', 'console.keys.title', [
        'console.keys.nameAndPrefix',
        'console.keys.scopes',
        'console.common.status',
        'console.keys.lastUsed',
        'console.common.created',
        'console.common.actions',
      ])}
    </section>`,
  );
}

/** One checkbox per event type; none checked means every type. */
const eventTypeBoxes = (prefix: string): Html[] =>
  EVENT_TYPES.map(
    (type) =>
      html`<label class="inline"
        ><input type="checkbox" name="eventTypes" value="${type}" id="${prefix}-${type}" />
        <code>${type}</code></label
      >`,
  );

function webhooks(words: Translator): Html {
  const { t, rich } = words;
  return tabPanel(
    'webhooks',
    html`<section class="panel" aria-labelledby="webhooks-title">
        <div class="page-head">
          <h2 id="webhooks-title">${t('console.webhooks.title')}</h2>
          <button
            type="button"
            id="webhook-add-open"
            aria-controls="webhook-add"
            aria-expanded="false"
          >
            ${t('console.webhooks.add')}
          </button>
        </div>
        <p class="muted">${t('console.webhooks.lead')}</p>
        ${alertBox('webhooks-status')}
        ${secretBlock(t, 'webhook-secret', 'console.webhooks.secret', 'console.webhooks.secretHint')}
        <form id="webhook-add" class="subpanel" aria-labelledby="webhook-add-title" hidden>
          <h3 id="webhook-add-title">${t('console.webhooks.newTitle')}</h3>
          <label for="webhook-url">${t('console.webhooks.url')}</label>
          <input
            type="url"
            id="webhook-url"
            name="url"
            required
            maxlength="2048"
            placeholder="https://example.com/webhooks"
          />
          <label for="webhook-description">${t('console.common.description')}</label>
          <input type="text" id="webhook-description" name="description" maxlength="200" />
          <fieldset>
            <legend>${t('console.webhooks.eventTypes')}</legend>
            ${eventTypeBoxes('webhook-add')}
            <p class="hint">${t('console.webhooks.allTypesLater')}</p>
          </fieldset>
          <button type="submit">${t('console.webhooks.add')}</button>
          <button type="button" class="secondary" id="webhook-add-cancel">
            ${t('console.common.cancel')}
          </button>
        </form>
        <form id="webhook-edit" class="subpanel" aria-labelledby="webhook-edit-title" hidden>
          <h3 id="webhook-edit-title">${t('console.webhooks.editTitle')}</h3>
          <label for="webhook-edit-url">${t('console.webhooks.url')}</label>
          <input
            type="url"
            id="webhook-edit-url"
            name="url"
            required
            maxlength="2048"
            aria-describedby="webhook-edit-url-hint"
          />
          <p class="hint" id="webhook-edit-url-hint">${t('console.webhooks.urlHint')}</p>
          <label for="webhook-edit-description">${t('console.common.description')}</label>
          <input type="text" id="webhook-edit-description" name="description" maxlength="200" />
          <fieldset>
            <legend>${t('console.webhooks.eventTypes')}</legend>
            ${eventTypeBoxes('webhook-edit')}
            <p class="hint">${t('console.webhooks.allTypes')}</p>
          </fieldset>
          <button type="submit">${t('console.webhooks.save')}</button>
          <button type="button" class="secondary" id="webhook-edit-cancel">
            ${t('console.common.cancel')}
          </button>
        </form>
        ${dataTable(t, 'webhooks-table', 'console.webhooks.title', [
          'console.webhooks.endpoint',
          'console.webhooks.eventTypes',
          'console.common.status',
          'console.webhooks.delivery',
          'console.common.actions',
        ])}
      </section>
      <section class="panel" id="webhook-log" aria-labelledby="webhook-log-title" hidden>
        <div class="page-head">
          <h2 id="webhook-log-title">${t('console.webhooks.log.title')}</h2>
          <button type="button" class="secondary" id="webhook-log-refresh">
            ${t('console.webhooks.log.refresh')}
          </button>
        </div>
        <p class="muted">
          ${rich('console.webhooks.log.lead', {}, { url: () => html`<span id="webhook-log-url" class="mono"></span>` })}
        </p>
        ${alertBox('webhook-log-status')}
        <form
          id="webhook-replay"
          class="subpanel filters replay"
          aria-describedby="webhook-replay-hint"
        >
          <div>
            <label for="replay-event">${t('console.webhooks.log.replayEvent')}</label>
            <input type="number" id="replay-event" name="fromEventId" min="1" step="1" />
          </div>
          <div>
            <label for="replay-time">${t('console.webhooks.log.replayTime')}</label>
            <input type="datetime-local" id="replay-time" name="fromTime" step="1" />
          </div>
          <button type="submit">${t('console.webhooks.log.replay')}</button>
          <p class="hint" id="webhook-replay-hint">${t('console.webhooks.log.replayHint')}</p>
        </form>
        ${dataTable(t, 'webhook-deliveries', 'console.webhooks.log.caption', [
          'console.common.time',
          'console.webhooks.log.kind',
          'console.webhooks.log.event',
          'console.webhooks.log.result',
          'console.webhooks.log.latency',
          'console.webhooks.log.nextRetry',
          'console.common.actions',
        ])}
      </section>`,
  );
}

function members(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'members',
    html`<section class="panel" aria-labelledby="members-title">
      <h2 id="members-title">${t('console.members.title')}</h2>
      <p class="muted">${t('console.members.lead')}</p>
      ${alertBox('members-status')}
      <form id="grant-member" class="subpanel" aria-labelledby="grant-member-title">
        <h3 id="grant-member-title">${t('console.members.grantTitle')}</h3>
        <label for="member-login">${t('console.common.loginField')}</label>
        <input type="text" id="member-login" name="login" required maxlength="320" />
        <label for="member-role">${t('console.common.role')}</label>
        <select id="member-role" name="role">
          <option value="viewer">${t('console.members.viewerOption')}</option>
          <option value="admin">${t('console.members.adminOption')}</option>
        </select>
        <button type="submit">${t('console.members.grant')}</button>
      </form>
      ${dataTable(t, 'members-table', 'console.members.title', [
        'console.common.user',
        'console.common.role',
        'console.members.givenBy',
        'console.members.since',
        'console.common.actions',
      ])}
    </section>`,
  );
}

function audit(words: Translator): Html {
  const { t } = words;
  return tabPanel(
    'audit',
    html`<h2 class="visually-hidden">${t('console.application.tabs.audit')}</h2>
      ${alertBox('audit-status')}
      ${dataTable(t, 'audit-table', 'console.audit.caption', [
        'console.common.time',
        'console.audit.who',
        'console.audit.action',
        'console.audit.target',
        'console.audit.address',
      ])}
      <button type="button" class="secondary" id="audit-more" hidden>
        ${t('console.audit.more')}
      </button>`,
  );
}
