import { html } from '../../../../common/http/html';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { alertBox, consoleLayout, dataTable } from './layout';

/** A configured, enabled upstream provider the user may connect. */
export interface ConnectableProvider {
  id: string;
  displayName: string;
}

/** GET /console/account: the signed-in user, their passkeys and their upstream accounts. */
export function accountPage(lang: PageLanguage, providers: ConnectableProvider[] = []): string {
  const { t } = lang.translator();
  return consoleLayout(lang, {
    title: t('console.account.title'),
    script: 'account',
    section: 'account',
    body: html`<main class="wide" id="account" hidden>
      <h1>${t('console.account.title')}</h1>
      <section class="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">${t('console.account.signedInAs')}</h2>
        <dl class="details" id="profile"></dl>
      </section>
      <section class="panel" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">${t('console.account.passkeys')}</h2>
        <p class="muted">${t('console.account.passkeysLead')}</p>
        ${alertBox('passkeys-status')}
        ${dataTable(t, 'passkeys-table', 'console.account.passkeysCaption', [
          'console.common.name',
          'console.common.created',
          'console.account.lastUsed',
          'console.account.synced',
          'console.common.actions',
        ])}
        <form id="add-passkey">
          <h3>${t('console.account.addTitle')}</h3>
          <label for="passkey-name">${t('console.common.name')}</label>
          <input
            type="text"
            id="passkey-name"
            name="name"
            required
            maxlength="64"
            placeholder="${t('console.account.namePlaceholder')}"
          />
          <button type="submit">${t('console.account.add')}</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="upstreams-title">
        <h2 id="upstreams-title">${t('console.account.upstreams')}</h2>
        <p class="muted">${t('console.account.upstreamsLead')}</p>
        ${alertBox('upstreams-status')}
        ${dataTable(t, 'upstreams-table', 'console.account.upstreamsCaption', [
          'console.account.provider',
          'console.account.username',
          'console.account.connected',
          'console.common.actions',
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
