import { html, Html } from '../../../../common/http/html';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import type { Translate } from '../../../../common/i18n/i18n';
import { alertBox, consoleLayout, dataTable, secretBlock } from './layout';

/**
 * GET /console: the sign-in form (password or passkey) for a visitor, the applications list for
 * a signed-in user. The script shows one of the two after asking GET /api/console/session.
 */
export function homePage(lang: PageLanguage): string {
  const { t } = lang.translator();
  return consoleLayout(lang, {
    title: t('console.apps.title'),
    script: 'home',
    section: 'applications',
    body: html`${signIn(t)} ${applications(t)}`,
  });
}

function signIn(t: Translate): Html {
  return html`<main class="narrow" id="signin" hidden>
    <h1>${t('console.signIn.title')}</h1>
    <p class="muted">${t('console.signIn.lead')}</p>
    ${alertBox('signin-error')}
    <form id="signin-form">
      <label for="login">${t('console.common.loginField')}</label>
      <input type="text" id="login" name="login" autocomplete="username" required />
      <label for="password">${t('console.signIn.password')}</label>
      <input
        type="password"
        id="password"
        name="password"
        autocomplete="current-password"
        required
      />
      <button type="submit" class="block">${t('console.signIn.submit')}</button>
    </form>
    <div class="divider">${t('console.signIn.or')}</div>
    <button type="button" class="secondary block" id="passkey-signin">
      ${t('console.signIn.passkey')}
    </button>
  </main>`;
}

function applications(t: Translate): Html {
  return html`<main class="wide" id="apps" hidden>
    <div class="page-head">
      <h1>${t('console.apps.title')}</h1>
      <button type="button" id="create-app-open" aria-controls="create-app" aria-expanded="false">
        ${t('console.apps.create')}
      </button>
    </div>
    ${alertBox('apps-status')} ${secretBlock(t, 'app-secret', 'console.apps.newSecret')}
    <section class="panel" id="create-app" aria-labelledby="create-app-title" hidden>
      <h2 id="create-app-title">${t('console.apps.create')}</h2>
      <form id="create-app-form">
        <label for="app-name">${t('console.common.name')}</label>
        <input type="text" id="app-name" name="name" required maxlength="100" />
        <label for="app-description">${t('console.common.description')}</label>
        <input type="text" id="app-description" name="description" maxlength="500" />
        <label for="app-home">${t('console.common.homeUrl')}</label>
        <input type="url" id="app-home" name="homeUrl" placeholder="https://" />
        <label for="app-redirects">${t('console.common.redirectUris')}</label>
        <textarea
          id="app-redirects"
          name="redirectUris"
          aria-describedby="app-redirects-hint"
        ></textarea>
        <p class="hint" id="app-redirects-hint">${t('console.common.redirectHint')}</p>
        <label for="app-auth">${t('console.apps.clientType')}</label>
        <select id="app-auth" name="clientAuthMethod">
          <option value="secret">${t('console.apps.typeSecret')}</option>
          <option value="none">${t('console.apps.typePublic')}</option>
        </select>
        <button type="submit">${t('console.apps.submit')}</button>
        <button type="button" class="secondary" id="create-app-cancel">
          ${t('console.common.cancel')}
        </button>
      </form>
    </section>
    ${dataTable(t, 'apps-table', 'console.apps.caption', [
      'console.common.name',
      'console.apps.yourRole',
      'console.common.status',
      'console.common.created',
    ])}
  </main>`;
}
