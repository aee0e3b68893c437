import { html } from '../../../../common/http/html';
import { alertBox, consoleLayout, dataTable } from './layout';

/** A configured, enabled upstream provider the user may connect. */
export interface ConnectableProvider {
  id: string;
  displayName: string;
}

/** GET /console/account: the signed-in user, their passkeys and their upstream accounts. */
export function accountPage(providers: ConnectableProvider[] = []): string {
  return consoleLayout({
    title: 'Account',
    script: 'account',
    section: 'account',
    body: html`<main class="wide" id="account" hidden>
      <h1>Account</h1>
      <section class="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Signed in as</h2>
        <dl class="details" id="profile"></dl>
      </section>
      <section class="panel" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        <p class="muted">
          Passkeys sign you in without a password and confirm every API key, client secret and
          delete operation. Adding the first one needs a password sign-in within the last 5 minutes;
          adding more, or removing one, is confirmed with an existing passkey.
        </p>
        ${alertBox('passkeys-status')}
        ${dataTable('passkeys-table', 'Your passkeys', [
          'Name',
          'Created',
          'Last used',
          'Synced',
          'Actions',
        ])}
        <form id="add-passkey">
          <h3>Add a passkey</h3>
          <label for="passkey-name">Name</label>
          <input
            type="text"
            id="passkey-name"
            name="name"
            required
            maxlength="64"
            placeholder="Laptop fingerprint"
          />
          <button type="submit">Add passkey</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="upstreams-title">
        <h2 id="upstreams-title">Connected accounts</h2>
        <p class="muted">
          Accounts at other providers that sign you in here. Disconnecting one is confirmed with a
          passkey and refused for your last way to sign in.
        </p>
        ${alertBox('upstreams-status')}
        ${dataTable('upstreams-table', 'Your connected accounts', [
          'Provider',
          'Username',
          'Connected',
          'Actions',
        ])}
        <ul id="upstream-providers" hidden>
          ${providers.map(
            (provider) => html`<li data-provider-id="${provider.id}">${provider.displayName}</li>`,
          )}
        </ul>
        <div id="connect-upstreams" class="actions"></div>
      </section>
    </main>`,
  });
}
