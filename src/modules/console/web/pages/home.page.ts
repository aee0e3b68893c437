import { html } from '../../../../common/http/html';
import { alertBox, consoleLayout, dataTable, secretBlock } from './layout';

/**
 * GET /console: the sign-in form (password or passkey) for a visitor, the applications list for
 * a signed-in user. The script shows one of the two after asking GET /api/console/session.
 */
export function homePage(): string {
  return consoleLayout({
    title: 'Applications',
    script: 'home',
    section: 'applications',
    body: html`${signIn} ${applications}`,
  });
}

const signIn = html`<main class="narrow" id="signin" hidden>
  <h1>Sign in to the console</h1>
  <p class="muted">Use the account you sign in to applications with.</p>
  ${alertBox('signin-error')}
  <form id="signin-form">
    <label for="login">Username or email</label>
    <input type="text" id="login" name="login" autocomplete="username" required />
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required />
    <button type="submit" class="block">Sign in</button>
  </form>
  <div class="divider">or</div>
  <button type="button" class="secondary block" id="passkey-signin">Sign in with a passkey</button>
</main>`;

const applications = html`<main class="wide" id="apps" hidden>
  <div class="page-head">
    <h1>Applications</h1>
    <button type="button" id="create-app-open" aria-controls="create-app" aria-expanded="false">
      Create application
    </button>
  </div>
  ${alertBox('apps-status')} ${secretBlock('app-secret', 'Client secret of the new application')}
  <section class="panel" id="create-app" aria-labelledby="create-app-title" hidden>
    <h2 id="create-app-title">Create application</h2>
    <form id="create-app-form">
      <label for="app-name">Name</label>
      <input type="text" id="app-name" name="name" required maxlength="100" />
      <label for="app-description">Description</label>
      <input type="text" id="app-description" name="description" maxlength="500" />
      <label for="app-home">Home page URL</label>
      <input type="url" id="app-home" name="homeUrl" placeholder="https://" />
      <label for="app-redirects">Redirect URIs</label>
      <textarea
        id="app-redirects"
        name="redirectUris"
        aria-describedby="app-redirects-hint"
      ></textarea>
      <p class="hint" id="app-redirects-hint">
        One per line: https, http on loopback, or an app scheme (com.example.app:/cb); exact match
        at sign-in (any port on 127.0.0.1 or [::1] for public clients).
      </p>
      <label for="app-auth">Client type</label>
      <select id="app-auth" name="clientAuthMethod">
        <option value="secret">Server-side (client secret)</option>
        <option value="none">Browser, desktop or mobile (PKCE, no secret)</option>
      </select>
      <button type="submit">Create</button>
      <button type="button" class="secondary" id="create-app-cancel">Cancel</button>
    </form>
  </section>
  ${dataTable('apps-table', 'Your applications', ['Name', 'Your role', 'Status', 'Created'])}
</main>`;
