// GET /console: sign-in (password or passkey) for a visitor, the applications list afterwards.
import {
  $,
  api,
  busy,
  el,
  errorText,
  fillTable,
  formValues,
  getAssertion,
  rich,
  lines,
  loadSession,
  say,
  showFrame,
  showSecret,
  t,
  useSession,
  when,
} from './core.js';

const ROLE_LABELS = {
  owner: 'console.roles.owner',
  admin: 'console.roles.admin',
  viewer: 'console.roles.viewer',
};

/** Where to go after sign-in: the page that sent us here, if it is a console page. */
function nextPage() {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/console(\/|$|\?|#)/.test(next) && !next.startsWith('//') ? next : null;
}

async function start() {
  const session = await loadSession();
  if (session) {
    showApplications(session);
  } else {
    showSignIn();
  }
}

// ---------------------------------------------------------------- sign-in

function showSignIn() {
  $('#loading').hidden = true;
  $('#signin').hidden = false;
  $('#login').focus();
  const form = $('#signin-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // The password as typed (formValues trims text).
    const body = { login: formValues(form).login, password: form.elements.password.value };
    void busy(form, () => signedIn(() => api('POST', '/api/console/session', { body })));
  });
  const passkey = $('#passkey-signin');
  passkey.addEventListener('click', () => {
    passkey.disabled = true;
    void signedIn(async () => {
      const { ceremonyId, options } = await api('POST', '/api/console/session/passkey/options', {
        body: {},
      });
      const response = await getAssertion(options);
      return api('POST', '/api/console/session/passkey', { body: { ceremonyId, response } });
    }).finally(() => (passkey.disabled = false));
  });
}

async function signedIn(signIn) {
  say('#signin-error', '');
  try {
    const session = useSession(await signIn());
    const next = nextPage();
    if (next) {
      location.assign(next);
      return;
    }
    $('#signin').hidden = true;
    $('#password').value = '';
    showApplications(session);
  } catch (error) {
    $('#password').value = '';
    say('#signin-error', errorText(error), 'error');
  }
}

// ---------------------------------------------------------------- applications

function showApplications(session) {
  showFrame(session);
  $('#apps').hidden = false;
  wireCreateForm();
  void loadApplications();
}

async function loadApplications() {
  try {
    const apps = await api('GET', '/api/console/applications');
    fillTable(
      $('#apps-table'),
      apps.map((app) =>
        el(
          'tr',
          {},
          el(
            'td',
            {},
            el('a', { href: `/console/applications/${app.id}` }, app.name),
            app.description ? el('div', { class: 'muted' }, app.description) : null,
          ),
          el('td', {}, ROLE_LABELS[app.role] ? t(ROLE_LABELS[app.role]) : app.role),
          el(
            'td',
            {},
            el(
              'span',
              { class: app.enabled ? 'badge ok' : 'badge off' },
              t(app.enabled ? 'console.common.enabled' : 'console.common.disabled'),
            ),
          ),
          el('td', {}, when(app.createdAt)),
        ),
      ),
      t('console.apps.empty'),
    );
  } catch (error) {
    say('#apps-status', errorText(error), 'error');
  }
}

function wireCreateForm() {
  const panel = $('#create-app');
  const open = $('#create-app-open');
  const form = $('#create-app-form');
  const toggle = (show) => {
    panel.hidden = !show;
    open.setAttribute('aria-expanded', String(show));
    if (show) $('#app-name').focus();
  };
  open.addEventListener('click', () => toggle(panel.hidden));
  $('#create-app-cancel').addEventListener('click', () => {
    toggle(false);
    open.focus();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = formValues(form);
    const body = {
      name: values.name,
      redirectUris: lines(values.redirectUris),
      clientAuthMethod: values.clientAuthMethod,
    };
    if (values.description) body.description = values.description;
    if (values.homeUrl) body.homeUrl = values.homeUrl;
    void busy(form, async () => {
      try {
        const created = await api('POST', '/api/console/applications', { body });
        form.reset();
        toggle(false);
        say(
          '#apps-status',
          rich(
            'console.apps.created',
            { name: created.name },
            { a: (chunks) => el('a', { href: `/console/applications/${created.id}` }, chunks) },
          ),
        );
        if (created.clientSecret) showSecret('app-secret', created.clientSecret);
        await loadApplications();
      } catch (error) {
        say('#apps-status', errorText(error), 'error');
      }
    });
  });
}

void start();
