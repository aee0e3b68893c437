import { html, Html } from '../../../../common/http/html';
import { confirmDialog } from '../../../console/web/pages/layout';
import { safeLogo } from '../../../oauth/interaction/pages/consent.page';
import { SCOPE_DESCRIPTIONS, splitScope, type OAuthScope } from '../../../oauth/protocol/scopes';
import type { SessionAuthMethod } from '../../../sessions/oauth-session.entity';
import type { AccountEmail } from '../../../users/users.service';
import type { ProfileProblems } from '../../../users/profile';
import { ACCOUNT_ASSETS_PATH, accountLayout, formError, utcTime } from './account-layout';

/** The forms of the account page, each with its own CSRF purpose. */
export const ACCOUNT_FORMS = ['profile', 'email_code', 'password', 'revoke', 'logout'] as const;
export type AccountForm = (typeof ACCOUNT_FORMS)[number];

/** The password section: change (current + new twice), set a first one, or why not. */
export interface PasswordSection {
  hasPassword: boolean;
  /** Without a password: a primary sign-in within 5 minutes allows setting one. */
  maySet: boolean;
  error?: string;
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
  notice?: string;
  csrf: Record<AccountForm, string>;
  /** The values shown in the profile form (the submitted ones after a refusal). */
  profile: { nickname: string; avatar: string; problems: ProfileProblems };
  emails: { list: AccountEmail[]; error?: string; typed?: string };
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
export function accountPage(model: AccountPageModel): string {
  return accountLayout({
    title: 'Your account',
    width: 'wide',
    script: ACCOUNT_SCRIPT,
    header: topBar(model),
    body: html`<h1>Your account</h1>
      ${model.notice ? html`<p class="alert ok" role="status">${model.notice}</p>` : html``}
      ${profileSection(model)}
      ${emailsSection(model.emails, model.csrf.email_code, model.password.hasPassword)}
      ${passwordSection(model.password, model.csrf.password)} ${passkeysSection(model.passkeys)}
      ${upstreamsSection(model.upstreams, model.connectable)}
      ${applicationsSection(model.applications, model.csrf.revoke)} ${signInsSection(model.signIns)}
      ${confirmDialog}`,
  });
}

function topBar(model: AccountPageModel): Html {
  return html`<header class="topbar">
    <span class="brand">Account</span>
    <span class="who">${model.user.username}</span>
    <form method="post" action="/account/logout">
      <input type="hidden" name="csrf_token" value="${model.csrf.logout}" />
      <button type="submit">Sign out</button>
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

function profileSection(model: AccountPageModel): Html {
  const { profile } = model;
  const avatar = safeLogo(model.user.avatar);
  return section(
    'profile',
    'Profile',
    html`${avatar ? html`<img class="logo" src="${avatar}" alt="Your avatar" />` : html``}
      <dl class="details">
        <dt>Username</dt>
        <dd>${model.user.username}</dd>
        <dt>Email</dt>
        <dd>${model.user.email || '—'}</dd>
      </dl>
      ${formError(profile.problems.nickname)} ${formError(profile.problems.avatar)}
      <form method="post" action="/account/profile">
        <input type="hidden" name="csrf_token" value="${model.csrf.profile}" />
        <label for="nickname">Nickname</label>
        <input
          type="text"
          id="nickname"
          name="nickname"
          maxlength="64"
          autocomplete="nickname"
          value="${profile.nickname}"
        />
        <label for="avatar">Avatar URL</label>
        <input
          type="url"
          id="avatar"
          name="avatar"
          maxlength="2000"
          placeholder="https://…"
          value="${profile.avatar}"
        />
        <p class="hint">An https:// address of an image; leave empty for none.</p>
        <button type="submit">Save profile</button>
      </form>`,
  );
}

function emailsSection(
  emails: AccountPageModel['emails'],
  csrfToken: string,
  hasPassword: boolean,
): Html {
  // A new address is a new way into the account (a password reset): it takes the current
  // password, or for an account without one a sign-in within the last 5 minutes.
  const stepUp = hasPassword
    ? html`<label for="new-email-password">Current password</label>
        <input
          type="password"
          id="new-email-password"
          name="current_password"
          autocomplete="current-password"
          required
        />`
    : html`<p class="hint">Adding an address needs a sign-in within the last 5 minutes.</p>`;
  const sendCode = (email: string): Html =>
    html`<form method="post" action="/account/emails/code">
      <input type="hidden" name="csrf_token" value="${csrfToken}" />
      <input type="hidden" name="email" value="${email}" />
      <button type="submit" class="small secondary">Send a verification code</button>
    </form>`;
  const rows = emails.list.map(
    (entry) =>
      html`<tr>
        <td>${entry.email}</td>
        <td>
          ${
            entry.verified
              ? html`<span class="badge ok">Verified</span>`
              : html`<span class="badge warn">Not verified</span>`
          }
        </td>
        <td>${entry.primary ? html`<span class="badge">Primary</span>` : html``}</td>
        <td class="actions">${entry.verified ? html`` : sendCode(entry.email)}</td>
      </tr>`,
  );
  return section(
    'emails',
    'Email addresses',
    html`${table('Your email addresses', ['Address', 'Status', '', ''], rows, 'No email address.')}
      ${formError(emails.error)}
      <form method="post" action="/account/emails/code">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        <label for="new-email">Add an address</label>
        <input
          type="email"
          id="new-email"
          name="email"
          autocomplete="email"
          maxlength="254"
          required
          value="${emails.typed ?? ''}"
        />
        <p class="hint">We email it a code; the address is added once you enter the code.</p>
        ${stepUp}
        <button type="submit">Send a verification code</button>
      </form>`,
  );
}

function passwordSection(password: PasswordSection, csrfToken: string): Html {
  const newFields = html`<label for="new-password">New password</label>
    <input
      type="password"
      id="new-password"
      name="new_password"
      autocomplete="new-password"
      minlength="8"
      required
    />
    <label for="repeat-password">New password again</label>
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
      'Password',
      html`${formError(password.error)}
        <p>
          This account has no password: it signs in through a connected account. To set one, sign in
          through that account again and come back here within 5 minutes.
        </p>`,
    );
  }
  const current = password.hasPassword
    ? html`<label for="current-password">Current password</label>
        <input
          type="password"
          id="current-password"
          name="current_password"
          autocomplete="current-password"
          required
        />`
    : html`<p class="muted">This account has no password yet; you may set one now.</p>`;
  return section(
    'password',
    'Password',
    html`${formError(password.error)}
      <form method="post" action="/account/password">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        ${current} ${newFields}
        <p class="hint">
          At least 8 characters and hard to guess: a phrase of unrelated words works well. Your
          other signed-in browsers are signed out.
        </p>
        <button type="submit">${password.hasPassword ? 'Change password' : 'Set password'}</button>
      </form>`,
  );
}

/** Controls that only the script can drive: hidden until it runs, explained without it. */
function scripted(what: string, controls: Html): Html {
  return html`<noscript><p class="muted">${what} needs JavaScript.</p></noscript>
    <div class="scripted" hidden>${controls}</div>`;
}

function passkeysSection(passkeys: PasskeyRow[]): Html {
  const rows = passkeys.map(
    (passkey) =>
      html`<tr data-passkey-id="${passkey.id}" data-passkey-name="${passkey.name}">
        <td>${passkey.name}</td>
        <td>${utcTime(passkey.createdAt)}</td>
        <td>${utcTime(passkey.lastUsedAt)}</td>
        <td class="actions">
          <button type="button" class="small danger" data-remove-passkey hidden>Remove</button>
        </td>
      </tr>`,
  );
  return section(
    'passkeys',
    'Passkeys',
    html`<p class="muted">
        Passkeys sign you in without a password. The first one needs a password sign-in within the
        last 5 minutes; adding more, or removing one, is confirmed with an existing passkey.
      </p>
      <div class="alert" id="passkeys-status" role="alert" hidden></div>
      ${table('Your passkeys', ['Name', 'Created', 'Last used', ''], rows, 'No passkeys yet.')}
      ${scripted(
        'Adding or removing a passkey',
        html`<form id="add-passkey">
          <label for="passkey-name">Name of a new passkey</label>
          <input
            type="text"
            id="passkey-name"
            name="name"
            required
            maxlength="64"
            placeholder="Laptop fingerprint"
          />
          <button type="submit">Add passkey</button>
        </form>`,
      )}`,
  );
}

function upstreamsSection(upstreams: UpstreamRow[], connectable: ConnectableProvider[]): Html {
  const rows = upstreams.map(
    (row) =>
      html`<tr data-upstream-id="${row.id}" data-upstream-provider="${row.provider}">
        <td>${row.provider}</td>
        <td>${row.username}</td>
        <td>${utcTime(row.connectedAt)}</td>
        <td>${utcTime(row.lastUsedAt)}</td>
        <td class="actions">
          <button type="button" class="small danger" data-disconnect hidden>Disconnect</button>
        </td>
      </tr>`,
  );
  const connect = connectable.map(
    (provider) =>
      html`<button
        type="button"
        data-connect="${provider.id}"
        data-provider-name="${provider.displayName}"
      >
        Connect ${provider.displayName}
      </button>`,
  );
  return section(
    'upstreams',
    'Connected accounts',
    html`<p class="muted">
        Accounts at other providers that sign you in here. Connecting one is confirmed with a
        passkey (without one: a password sign-in within 5 minutes); disconnecting one with a
        passkey, and never your last way to sign in.
      </p>
      <div class="alert" id="upstreams-status" role="alert" hidden></div>
      ${table(
        'Your connected accounts',
        ['Provider', 'Username', 'Connected', 'Last used', ''],
        rows,
        'No connected accounts.',
      )}
      ${
        connect.length > 0
          ? scripted(
              'Connecting or disconnecting an account',
              html`<div class="actions">${connect}</div>`,
            )
          : html``
      }`,
  );
}

function applicationsSection(applications: AuthorizedApplicationRow[], csrfToken: string): Html {
  const rows = applications.map((app) => {
    const logo = safeLogo(app.logo);
    const scopes = splitScope(app.scope).map(
      (scope) =>
        html`<li>
          <code>${scope}</code>: ${SCOPE_DESCRIPTIONS[scope as OAuthScope] ?? 'another permission'}
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
      <td>${utcTime(app.lastUsedAt)}</td>
      <td class="actions">
        <form method="post" action="/account/applications/${app.id}/revoke">
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <button type="submit" class="small danger">Revoke</button>
        </form>
      </td>
    </tr>`;
  });
  return section(
    'applications',
    'Applications you authorized',
    html`<p class="muted">
        Revoking signs the application out of your account at once (its tokens stop working) and it
        asks for your consent again next time.
      </p>
      ${table(
        'Applications you authorized',
        ['Application', 'Access', 'Last used', ''],
        rows,
        'You have not authorized any application.',
      )}`,
  );
}

const METHOD_NAMES: Record<SessionAuthMethod, string> = {
  password: 'Password',
  passkey: 'Passkey',
  upstream: 'Connected account',
};

function signInsSection(signIns: SignInRow[]): Html {
  const rows = signIns.map(
    (signIn) =>
      html`<tr>
        <td>${utcTime(signIn.at)}</td>
        <td>${METHOD_NAMES[signIn.method] ?? signIn.method}</td>
        <td class="mono">${signIn.ip}</td>
        <td>${signIn.userAgent}</td>
      </tr>`,
  );
  return section(
    'sign-ins',
    'Recent sign-ins',
    html`<p class="muted">Your last 20 sign-ins of the past 90 days, newest first.</p>
      ${table(
        'Your recent sign-ins',
        ['When', 'How', 'Address', 'Browser'],
        rows,
        'No sign-ins recorded.',
      )}`,
  );
}
