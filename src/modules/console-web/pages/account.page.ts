import { html } from '../../oauth/pages/html';
import { alertBox, consoleLayout, dataTable } from './layout';

/** GET /console/account: the signed-in user and their passkeys. */
export function accountPage(): string {
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
    </main>`,
  });
}
