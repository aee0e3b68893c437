import { html, Html } from '../../../../common/http/html';
import {
  render,
  type MessageKey,
  type Text,
  type Translate,
  type Translator,
} from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { safeLogo, SCOPE_KEYS } from '../../authorization-pages/pages/consent.page';
import { splitScope, type OAuthScope } from '../../../oauth/protocol/scopes';
import type { SessionAuthMethod } from '../../../sessions/oauth-session.entity';
import type { AccountEmail } from '../../../users/users.service';
import type { ProfileProblems } from '../../../users/profile';
import { ACCOUNT_ASSETS_PATH, accountLayout, formError, localTime } from './account-layout';

/** The forms of the account page, each with its own CSRF purpose. */
export const ACCOUNT_FORMS = ['profile', 'email_code', 'password', 'revoke', 'logout'] as const;
export type AccountForm = (typeof ACCOUNT_FORMS)[number];

/** The password section: change (current + new twice), set a first one, or why not. */
export interface PasswordSection {
  hasPassword: boolean;
  /** Without a password: a primary sign-in within 5 minutes allows setting one. */
  maySet: boolean;
  error?: Text;
}

export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface UpstreamRow {
  id: number;
  provider: string;
  username: string;
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/** An enabled provider the user has not connected yet. */
export interface ConnectableProvider {
  id: string;
  displayName: string;
}

export interface AuthorizedApplicationRow {
  id: number;
  name: string;
  logo: string;
  scope: string;
  lastUsedAt: Date | null;
}

export interface SignInRow {
  method: SessionAuthMethod;
  ip: string;
  userAgent: string;
  at: Date;
}

export interface AccountPageModel {
  user: { username: string; email: string; nickname: string; avatar: string };
  /** A fixed message after a change (never text from the request). */
  notice?: Text;
  csrf: Record<AccountForm, string>;
  /** The values shown in the profile form (the submitted ones after a refusal). */
  profile: { nickname: string; avatar: string; problems: ProfileProblems };
  emails: { list: AccountEmail[]; error?: Text; typed?: string };
  password: PasswordSection;
  passkeys: PasskeyRow[];
  upstreams: UpstreamRow[];
  connectable: ConnectableProvider[];
  applications: AuthorizedApplicationRow[];
  signIns: SignInRow[];
}

/** The script that adds and removes passkeys and connected accounts through the console API. */
export const ACCOUNT_SCRIPT = `${ACCOUNT_ASSETS_PATH}/account.js`;

/**
 * GET /account: every section is rendered here, so reading works without JavaScript and every
 * change that a form can make is a form (profile, password, revoke, sign out). Passkeys and
 * connected accounts are changed by ACCOUNT_SCRIPT, whose controls stay hidden without it.
 */
export function accountPage(lang: PageLanguage, model: AccountPageModel): string {
  const words = lang.translator();
  const { t } = words;
  return accountLayout(lang, {
    title: t('common.yourAccount'),
    width: 'wide',
    script: ACCOUNT_SCRIPT,
    header: topBar(t, model),
    body: html`<h1>${t('common.yourAccount')}</h1>
      ${model.notice ? formNotice(t, model.notice) : html``} ${profileSection(words, model)}
      ${emailsSection(words, model.emails, model.csrf.email_code, model.password.hasPassword)}
      ${passwordSection(words, model.password, model.csrf.password)}
      ${passkeysSection(words, model.passkeys)}
      ${upstreamsSection(words, model.upstreams, model.connectable)}
      ${applicationsSection(words, model.applications, model.csrf.revoke)}
      ${signInsSection(words, model.signIns)} ${confirmDialog(words)}`,
  });
}

/** The notice after a change, in the page's language. */
function formNotice(t: Translate, notice: Text): Html {
  return html`<p class="alert ok" role="status">${render(notice, t)}</p>`;
}

/**
 * The passkey prompt of core.js `confirmed` (the console's dialog, same ids), in the page's
 * language.
 */
function confirmDialog(words: Translator): Html {
  const { t } = words;
  return html`<dialog id="confirm-dialog" aria-labelledby="confirm-title">
    <form method="dialog" id="confirm-form">
      <h2 id="confirm-title">${t('account.confirm.title')}</h2>
      <p id="confirm-text"></p>
      <p class="muted">${t('account.confirm.lead')}</p>
      <div class="alert error" id="confirm-error" role="alert" hidden></div>
      <button type="submit" id="confirm-go">${t('account.confirm.go')}</button>
      <button type="button" class="secondary" id="confirm-cancel">
        ${t('account.confirm.cancel')}
      </button>
    </form>
  </dialog>`;
}

function topBar(t: Translate, model: AccountPageModel): Html {
  return html`<header class="topbar">
    <span class="brand">${t('account.brand')}</span>
    <span class="who">${model.user.username}</span>
    <form method="post" action="/account/logout">
      <input type="hidden" name="csrf_token" value="${model.csrf.logout}" />
      <button type="submit">${t('logout.submit')}</button>
    </form>
  </header>`;
}

function section(id: string, title: string, body: Html): Html {
  return html`<section class="panel" id="${id}" aria-labelledby="${id}-title">
    <h2 id="${id}-title">${title}</h2>
    ${body}
  </section>`;
}

/** A table in a sideways-scrolling wrapper; no rows shows `empty`. */
function table(caption: string, headings: string[], rows: Html[], empty: string): Html {
  const body =
    rows.length > 0
      ? rows
      : [
          html`<tr class="empty">
            <td colspan="${headings.length}">${empty}</td>
          </tr>`,
        ];
  return html`<div class="table-wrap">
    <table>
      <caption class="visually-hidden">
        ${caption}
      </caption>
      <thead>
        <tr>
          ${headings.map((heading) => html`<th scope="col">${heading}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
    </table>
  </div>`;
}

function profileSection(words: Translator, model: AccountPageModel): Html {
  const { t } = words;
  const { profile } = model;
  const avatar = safeLogo(model.user.avatar);
  return section(
    'profile',
    t('account.profile.title'),
    html`${avatar ? html`<img class="logo" src="${avatar}" alt="${t('account.profile.avatarAlt')}" />` : html``}
      <dl class="details">
        <dt>${t('account.profile.username')}</dt>
        <dd>${model.user.username}</dd>
        <dt>${t('account.profile.email')}</dt>
        <dd>${model.user.email || '—'}</dd>
      </dl>
      ${formError(t, profile.problems.nickname)} ${formError(t, profile.problems.avatar)}
      <form method="post" action="/account/profile">
        <input type="hidden" name="csrf_token" value="${model.csrf.profile}" />
        <label for="nickname">${t('account.profile.nickname')}</label>
        <input
          type="text"
          id="nickname"
          name="nickname"
          maxlength="64"
          autocomplete="nickname"
          value="${profile.nickname}"
        />
        <label for="avatar">${t('account.profile.avatar')}</label>
        <input
          type="url"
          id="avatar"
          name="avatar"
          maxlength="2000"
          placeholder="https://…"
          value="${profile.avatar}"
        />
        <p class="hint">${t('account.profile.avatarHint')}</p>
        <button type="submit">${t('account.profile.save')}</button>
      </form>`,
  );
}

function emailsSection(
  words: Translator,
  emails: AccountPageModel['emails'],
  csrfToken: string,
  hasPassword: boolean,
): Html {
  const { t } = words;
  // A new address is a new way into the account (a password reset): it takes the current
  // password, or for an account without one a sign-in within the last 5 minutes.
  const stepUp = hasPassword
    ? html`<label for="new-email-password">${t('account.emails.currentPassword')}</label>
        <input
          type="password"
          id="new-email-password"
          name="current_password"
          autocomplete="current-password"
          required
        />`
    : html`<p class="hint">${t('account.emails.recentSignIn')}</p>`;
  const sendCode = (email: string): Html =>
    html`<form method="post" action="/account/emails/code">
      <input type="hidden" name="csrf_token" value="${csrfToken}" />
      <input type="hidden" name="email" value="${email}" />
      <button type="submit" class="small secondary">${t('account.emails.sendCode')}</button>
    </form>`;
  const rows = emails.list.map(
    (entry) =>
      html`<tr>
        <td>${entry.email}</td>
        <td>
          ${
            entry.verified
              ? html`<span class="badge ok">${t('account.emails.verified')}</span>`
              : html`<span class="badge warn">${t('account.emails.notVerified')}</span>`
          }
        </td>
        <td>
          ${entry.primary ? html`<span class="badge">${t('account.emails.primary')}</span>` : html``}
        </td>
        <td class="actions">${entry.verified ? html`` : sendCode(entry.email)}</td>
      </tr>`,
  );
  return section(
    'emails',
    t('account.emails.title'),
    html`${table(
        t('account.emails.caption'),
        [t('account.emails.address'), t('account.emails.status'), '', ''],
        rows,
        t('account.emails.none'),
      )}
      ${formError(t, emails.error)}
      <form method="post" action="/account/emails/code">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        <label for="new-email">${t('account.emails.add')}</label>
        <input
          type="email"
          id="new-email"
          name="email"
          autocomplete="email"
          maxlength="254"
          required
          value="${emails.typed ?? ''}"
        />
        <p class="hint">${t('account.emails.addHint')}</p>
        ${stepUp}
        <button type="submit">${t('account.emails.sendCode')}</button>
      </form>`,
  );
}

function passwordSection(words: Translator, password: PasswordSection, csrfToken: string): Html {
  const { t } = words;
  const newFields = html`<label for="new-password">${t('account.password.new')}</label>
    <input
      type="password"
      id="new-password"
      name="new_password"
      autocomplete="new-password"
      minlength="8"
      required
    />
    <label for="repeat-password">${t('account.password.repeat')}</label>
    <input
      type="password"
      id="repeat-password"
      name="repeat_password"
      autocomplete="new-password"
      minlength="8"
      required
    />`;
  if (!password.hasPassword && !password.maySet) {
    return section(
      'password',
      t('account.password.title'),
      html`${formError(t, password.error)}
        <p>${t('account.password.none')}</p>`,
    );
  }
  const current = password.hasPassword
    ? html`<label for="current-password">${t('account.password.current')}</label>
        <input
          type="password"
          id="current-password"
          name="current_password"
          autocomplete="current-password"
          required
        />`
    : html`<p class="muted">${t('account.password.noneYet')}</p>`;
  return section(
    'password',
    t('account.password.title'),
    html`${formError(t, password.error)}
      <form method="post" action="/account/password">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        ${current} ${newFields}
        <p class="hint">${t('account.password.hint')}</p>
        <button type="submit">
          ${password.hasPassword ? t('account.password.change') : t('account.password.set')}
        </button>
      </form>`,
  );
}

/** Controls that only the script can drive: hidden until it runs, explained without it. */
function scripted(needsScript: string, controls: Html): Html {
  return html`<noscript><p class="muted">${needsScript}</p></noscript>
    <div class="scripted" hidden>${controls}</div>`;
}

function passkeysSection(words: Translator, passkeys: PasskeyRow[]): Html {
  const { t } = words;
  const rows = passkeys.map(
    (passkey) =>
      html`<tr data-passkey-id="${passkey.id}" data-passkey-name="${passkey.name}">
        <td>${passkey.name}</td>
        <td>${localTime(words, passkey.createdAt)}</td>
        <td>${localTime(words, passkey.lastUsedAt)}</td>
        <td class="actions">
          <button
            type="button"
            class="small danger"
            data-confirm="${t('account.passkeys.confirmRemove', { name: passkey.name })}"
            data-remove-passkey
            hidden
          >
            ${t('account.passkeys.remove')}
          </button>
        </td>
      </tr>`,
  );
  return section(
    'passkeys',
    t('account.passkeys.title'),
    html`<p class="muted">${t('account.passkeys.lead')}</p>
      <div
        class="alert"
        id="passkeys-status"
        role="alert"
        data-message-recent-sign-in="${t('account.script.recentSignIn')}"
        data-message-not-confirmed="${t('account.script.notConfirmed')}"
        data-message-confirm-add="${t('account.passkeys.confirmAdd', { name: '{name}' })}"
        hidden
      ></div>
      ${table(
        t('account.passkeys.caption'),
        [
          t('account.passkeys.name'),
          t('account.passkeys.created'),
          t('account.passkeys.lastUsed'),
          '',
        ],
        rows,
        t('account.passkeys.none'),
      )}
      ${scripted(
        t('account.passkeys.needsScript'),
        html`<form id="add-passkey">
          <label for="passkey-name">${t('account.passkeys.newName')}</label>
          <input
            type="text"
            id="passkey-name"
            name="name"
            required
            maxlength="64"
            placeholder="${t('account.passkeys.placeholder')}"
          />
          <button type="submit">${t('account.passkeys.add')}</button>
        </form>`,
      )}`,
  );
}

function upstreamsSection(
  words: Translator,
  upstreams: UpstreamRow[],
  connectable: ConnectableProvider[],
): Html {
  const { t } = words;
  const rows = upstreams.map(
    (row) =>
      html`<tr data-upstream-id="${row.id}" data-upstream-provider="${row.provider}">
        <td>${row.provider}</td>
        <td>${row.username}</td>
        <td>${localTime(words, row.connectedAt)}</td>
        <td>${localTime(words, row.lastUsedAt)}</td>
        <td class="actions">
          <button
            type="button"
            class="small danger"
            data-confirm="${t('account.upstreams.confirmDisconnect', { provider: row.provider })}"
            data-disconnect
            hidden
          >
            ${t('account.upstreams.disconnect')}
          </button>
        </td>
      </tr>`,
  );
  const connect = connectable.map(
    (provider) =>
      html`<button
        type="button"
        data-connect="${provider.id}"
        data-provider-name="${provider.displayName}"
        data-confirm="${t('account.upstreams.confirmConnect', { provider: provider.displayName })}"
      >
        ${t('account.upstreams.connect', { provider: provider.displayName })}
      </button>`,
  );
  return section(
    'upstreams',
    t('account.upstreams.title'),
    html`<p class="muted">${t('account.upstreams.lead')}</p>
      <div
        class="alert"
        id="upstreams-status"
        role="alert"
        data-message-needs-passkey="${t('account.upstreams.needsPasskey')}"
        data-message-recent-sign-in="${t('account.script.recentSignIn')}"
        data-message-not-confirmed="${t('account.script.notConfirmed')}"
        hidden
      ></div>
      ${table(
        t('account.upstreams.caption'),
        [
          t('account.upstreams.provider'),
          t('account.upstreams.username'),
          t('account.upstreams.connected'),
          t('account.upstreams.lastUsed'),
          '',
        ],
        rows,
        t('account.upstreams.none'),
      )}
      ${
        connect.length > 0
          ? scripted(
              t('account.upstreams.needsScript'),
              html`<div class="actions">${connect}</div>`,
            )
          : html``
      }`,
  );
}

function applicationsSection(
  words: Translator,
  applications: AuthorizedApplicationRow[],
  csrfToken: string,
): Html {
  const { t } = words;
  const rows = applications.map((app) => {
    const logo = safeLogo(app.logo);
    const scopes = splitScope(app.scope).map(
      (scope) =>
        html`<li>
          <code>${scope}</code>:
          ${
            Object.hasOwn(SCOPE_KEYS, scope)
              ? t(SCOPE_KEYS[scope as OAuthScope])
              : t('account.applications.otherPermission')
          }
        </li>`,
    );
    return html`<tr data-application-id="${app.id}">
      <td>
        ${logo ? html`<img class="logo" src="${logo}" alt="" />` : html``}
        <strong>${app.name}</strong>
      </td>
      <td>
        <ul class="scopes">
          ${scopes}
        </ul>
      </td>
      <td>${localTime(words, app.lastUsedAt)}</td>
      <td class="actions">
        <form method="post" action="/account/applications/${app.id}/revoke">
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <button type="submit" class="small danger">${t('account.applications.revoke')}</button>
        </form>
      </td>
    </tr>`;
  });
  return section(
    'applications',
    t('account.applications.title'),
    html`<p class="muted">${t('account.applications.lead')}</p>
      ${table(
        t('account.applications.title'),
        [
          t('account.applications.application'),
          t('account.applications.access'),
          t('account.applications.lastUsed'),
          '',
        ],
        rows,
        t('account.applications.none'),
      )}`,
  );
}

const METHOD_NAMES: Record<SessionAuthMethod, MessageKey> = {
  password: 'account.signIns.password',
  passkey: 'account.signIns.passkey',
  upstream: 'account.signIns.upstream',
};

function signInsSection(words: Translator, signIns: SignInRow[]): Html {
  const { t } = words;
  const method = (name: SessionAuthMethod): string =>
    Object.hasOwn(METHOD_NAMES, name) ? t(METHOD_NAMES[name]) : name;
  const rows = signIns.map(
    (signIn) =>
      html`<tr>
        <td>${localTime(words, signIn.at)}</td>
        <td>${method(signIn.method)}</td>
        <td class="mono">${signIn.ip}</td>
        <td>${signIn.userAgent}</td>
      </tr>`,
  );
  return section(
    'sign-ins',
    t('account.signIns.title'),
    html`<p class="muted">${t('account.signIns.lead')}</p>
      ${table(
        t('account.signIns.caption'),
        [
          t('account.signIns.when'),
          t('account.signIns.how'),
          t('account.signIns.address'),
          t('account.signIns.browser'),
        ],
        rows,
        t('account.signIns.none'),
      )}`,
  );
}
