// The Webhooks tab (admins): the application's endpoints, their delivery log, a test event,
// resend and replay (docs/webhooks.md). Adding, a new URL, a new secret, replay and delete are
// confirmed with a passkey; a signing secret is shown once.
import {
  $,
  api,
  busy,
  confirmationHeader,
  confirmed,
  el,
  errorText,
  fillTable,
  formatDate,
  formatList,
  formatNumber,
  formValues,
  rich,
  say,
  showSecret,
  t,
  when,
} from './core.js';

const KIND_LABELS = {
  delivery: 'console.webhooks.log.kindDelivery',
  resend: 'console.webhooks.log.kindResend',
  test: 'console.webhooks.log.kindTest',
};

export async function showWebhooks(ctx) {
  // `log`: the endpoint whose delivery log is open; `edit(endpoint)`: opens the edit form.
  const state = { log: null, edit: null };
  wireAddForm(ctx, state);
  wireEditForm(ctx, state);
  // Refresh reloads the endpoints too: their cursor and failure state move with the log.
  $('#webhook-log-refresh').addEventListener(
    'click',
    () => void Promise.all([loadEndpoints(ctx, state), loadLog(ctx, state)]),
  );
  wireReplayForm(ctx, state);
  await loadEndpoints(ctx, state);
}

const endpointPath = (ctx, endpoint) => `${ctx.base}/webhooks/${endpoint.id}`;

async function loadEndpoints(ctx, state) {
  try {
    const endpoints = await api('GET', `${ctx.base}/webhooks`);
    fillTable(
      $('#webhooks-table'),
      endpoints.map((endpoint) => endpointRow(ctx, state, endpoint)),
      t('console.webhooks.empty'),
    );
  } catch (error) {
    say('#webhooks-status', errorText(error), 'error');
  }
}

function endpointRow(ctx, state, endpoint) {
  const run = (work) => () => void work(ctx, state, endpoint);
  return el(
    'tr',
    { 'data-webhook-id': endpoint.id },
    el(
      'td',
      { class: 'endpoint' },
      el('code', {}, endpoint.url),
      endpoint.description ? el('div', { class: 'muted' }, endpoint.description) : null,
    ),
    el(
      'td',
      { class: 'types' },
      endpoint.eventTypes.length > 0
        ? endpoint.eventTypes.map((type) => el('code', {}, type))
        : el('span', { class: 'muted' }, t('console.webhooks.all')),
    ),
    el('td', { class: 'status' }, statusOf(endpoint)),
    el('td', {}, deliveryOf(endpoint)),
    el(
      'td',
      { class: 'actions wrap' },
      button(t('console.webhooks.deliveryLog'), 'secondary', run(openLog)),
      button(t('console.webhooks.sendTest'), 'secondary', run(sendTest)),
      button(
        t(endpoint.enabled ? 'console.common.disable' : 'console.common.enable'),
        'secondary',
        run(toggleEnabled),
      ),
      button(t('console.webhooks.edit'), 'secondary', () => state.edit(endpoint)),
      button(t('console.webhooks.rotateSecret'), 'secondary', run(rotate)),
      button(t('console.common.delete'), 'danger', run(remove)),
    ),
  );
}

function button(label, kind, onClick) {
  return el('button', { type: 'button', class: `small ${kind}`, onclick: onClick }, label);
}

/** Enabled, or disabled with the reason when delivery stopped on its own (410, 24 h of failures). */
function statusOf(endpoint) {
  const parts = [
    endpoint.enabled
      ? el('span', { class: 'badge ok' }, t('console.common.enabled'))
      : el('span', { class: 'badge off' }, t('console.common.disabled')),
  ];
  if (!endpoint.enabled && endpoint.disabledReason) {
    parts.push(el('div', { class: 'muted' }, endpoint.disabledReason));
  }
  if (endpoint.previousSecretUntil && new Date(endpoint.previousSecretUntil) > new Date()) {
    parts.push(
      el(
        'div',
        { class: 'muted' },
        rich(
          'console.webhooks.oldSecretUntil',
          {},
          { time: () => when(endpoint.previousSecretUntil) },
        ),
      ),
    );
  }
  return parts;
}

function deliveryOf(endpoint) {
  const parts = [
    el(
      'div',
      {},
      endpoint.lastDeliveredEventId > 0
        ? rich(
            'console.webhooks.lastEvent',
            {},
            { id: () => el('code', {}, String(endpoint.lastDeliveredEventId)) },
          )
        : el('span', { class: 'muted' }, t('console.webhooks.noEvent')),
    ),
  ];
  if (endpoint.failingSince) {
    parts.push(
      el(
        'div',
        {},
        rich(
          'console.webhooks.failingSince',
          {},
          {
            badge: (chunks) => el('span', { class: 'badge warn' }, chunks),
            time: () => when(endpoint.failingSince),
          },
        ),
      ),
    );
  }
  if (endpoint.nextAttemptAt) {
    parts.push(
      el(
        'div',
        { class: 'muted' },
        rich('console.webhooks.nextAttempt', {}, { time: () => when(endpoint.nextAttemptAt) }),
      ),
    );
  }
  return parts;
}

// ---------------------------------------------------------------- add and edit

/** A hidden subpanel form with its opener: `toggle(true)` shows it and focuses its first field. */
function subform(form, open, cancel) {
  const toggle = (show) => {
    form.hidden = !show;
    open?.setAttribute('aria-expanded', String(show));
    if (show) form.elements.url.focus();
  };
  open?.addEventListener('click', () => toggle(form.hidden));
  cancel.addEventListener('click', () => {
    toggle(false);
    form.reset();
  });
  return toggle;
}

function wireAddForm(ctx, state) {
  const form = $('#webhook-add');
  const toggle = subform(form, $('#webhook-add-open'), $('#webhook-add-cancel'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { url, eventTypes, description } = formValues(form);
    const created = await confirmed(
      t('console.webhooks.confirmAdd', { url, types: describeTypes(eventTypes) }),
      { action: 'webhook.create', applicationId: ctx.id, url },
      (token) =>
        api('POST', `${ctx.base}/webhooks`, {
          body: { url, eventTypes, description },
          headers: confirmationHeader(token),
        }),
    );
    if (!created) return;
    form.reset();
    toggle(false);
    say('#webhooks-status', t('console.webhooks.added', { url: created.endpoint.url }));
    showSecret('webhook-secret', created.secret);
    await loadEndpoints(ctx, state);
  });
}

const describeTypes = (types) =>
  types.length > 0 ? formatList(types) : t('console.webhooks.allEventTypes');

function wireEditForm(ctx, state) {
  const form = $('#webhook-edit');
  const toggle = subform(form, null, $('#webhook-edit-cancel'));
  let editing = null;
  state.edit = (endpoint) => {
    editing = endpoint;
    form.elements.url.value = endpoint.url;
    form.elements.description.value = endpoint.description;
    for (const box of form.querySelectorAll('[name="eventTypes"]')) {
      box.checked = endpoint.eventTypes.includes(box.value);
    }
    $('#webhook-edit-title').textContent = t('console.webhooks.editTitleOf', { url: endpoint.url });
    toggle(true);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(form, async () => {
      try {
        if (await saveEdit(ctx, editing, formValues(form))) {
          toggle(false);
          say('#webhooks-status', t('console.webhooks.saved'));
          await loadEndpoints(ctx, state);
        }
      } catch (error) {
        say('#webhooks-status', errorText(error), 'error');
      }
    });
  });
}

/** A new URL goes through the passkey first; cancelling it saves nothing. */
async function saveEdit(ctx, endpoint, { url, eventTypes, description }) {
  if (url !== endpoint.url) {
    const moved = await confirmed(
      t('console.webhooks.confirmMove', { from: endpoint.url, to: url }),
      { action: 'webhook.update_url', applicationId: ctx.id, webhookId: endpoint.id, url },
      (token) =>
        api('PUT', `${endpointPath(ctx, endpoint)}/url`, {
          body: { url },
          headers: confirmationHeader(token),
        }),
    );
    if (!moved) return false;
  }
  await api('PATCH', endpointPath(ctx, endpoint), { body: { eventTypes, description } });
  return true;
}

/** Enabling also clears the failure state: the held event is tried again at once. */
async function toggleEnabled(ctx, state, endpoint) {
  const enabled = !endpoint.enabled;
  try {
    await api('PATCH', endpointPath(ctx, endpoint), { body: { enabled } });
    say('#webhooks-status', t('console.webhooks.switched', { url: endpoint.url, enabled }));
  } catch (error) {
    say('#webhooks-status', errorText(error), 'error');
  }
  await loadEndpoints(ctx, state);
}

// ---------------------------------------------------------------- secret, delete, test

async function rotate(ctx, state, endpoint) {
  const rotated = await confirmed(
    t('console.webhooks.confirmRotate', { url: endpoint.url }),
    { action: 'webhook.rotate_secret', applicationId: ctx.id, webhookId: endpoint.id },
    (token) =>
      api('POST', `${endpointPath(ctx, endpoint)}/rotate-secret`, {
        headers: confirmationHeader(token),
      }),
  );
  if (!rotated) return;
  say(
    '#webhooks-status',
    rich(
      'console.webhooks.rotated',
      { url: endpoint.url },
      { time: () => when(rotated.endpoint.previousSecretUntil) },
    ),
  );
  showSecret('webhook-secret', rotated.secret);
  await loadEndpoints(ctx, state);
}

async function remove(ctx, state, endpoint) {
  const done = await confirmed(
    t('console.webhooks.confirmDelete', { url: endpoint.url }),
    { action: 'webhook.delete', applicationId: ctx.id, webhookId: endpoint.id },
    async (token) => {
      await api('DELETE', endpointPath(ctx, endpoint), { headers: confirmationHeader(token) });
      return true;
    },
  );
  if (!done) return;
  if (state.log?.id === endpoint.id) closeLog(state);
  say('#webhooks-status', t('console.webhooks.deleted', { url: endpoint.url }));
  await loadEndpoints(ctx, state);
}

async function sendTest(ctx, state, endpoint) {
  say('#webhooks-status', t('console.webhooks.sending', { url: endpoint.url }), 'warn');
  try {
    const attempt = await api('POST', `${endpointPath(ctx, endpoint)}/test`);
    say(
      '#webhooks-status',
      t('console.webhooks.tested', { url: endpoint.url, outcome: outcome(attempt) }),
      succeeded(attempt) ? 'ok' : 'error',
    );
  } catch (error) {
    say('#webhooks-status', errorText(error), 'error');
  }
  if (state.log?.id === endpoint.id) await loadLog(ctx, state);
}

const succeeded = (attempt) =>
  attempt.statusCode !== null && attempt.statusCode < 300 && !attempt.error;

const latency = (attempt) => t('console.webhooks.latency', { ms: formatNumber(attempt.latencyMs) });

/** What became of an attempt, as the end of a sentence. */
function outcome(attempt) {
  const { statusCode: status, error } = attempt;
  if (succeeded(attempt)) {
    return t('console.webhooks.delivered', { status, latency: latency(attempt) });
  }
  if (status === null) {
    return error
      ? t('console.webhooks.failedNoAnswerError', { error })
      : t('console.webhooks.failedNoAnswer');
  }
  return error
    ? t('console.webhooks.failedHttpError', { status, error })
    : t('console.webhooks.failedHttp', { status });
}

// ---------------------------------------------------------------- delivery log

async function openLog(ctx, state, endpoint) {
  state.log = endpoint;
  $('#webhook-log-url').textContent = endpoint.url;
  say('#webhook-log-status', '');
  $('#webhook-replay').reset();
  $('#webhook-log').hidden = false;
  await loadLog(ctx, state);
  $('#webhook-log-title').scrollIntoView({ block: 'nearest' });
}

function closeLog(state) {
  state.log = null;
  $('#webhook-log').hidden = true;
}

async function loadLog(ctx, state) {
  const endpoint = state.log;
  if (!endpoint) return;
  try {
    const attempts = await api('GET', `${endpointPath(ctx, endpoint)}/deliveries`);
    fillTable(
      $('#webhook-deliveries'),
      attempts.map((attempt) => attemptRow(ctx, state, attempt)),
      t('console.webhooks.log.empty'),
    );
  } catch (error) {
    say('#webhook-log-status', errorText(error), 'error');
  }
}

function attemptRow(ctx, state, attempt) {
  const result = succeeded(attempt)
    ? el('span', { class: 'badge ok' }, String(attempt.statusCode))
    : el(
        'span',
        { class: 'badge off' },
        attempt.statusCode === null
          ? t('console.webhooks.log.noAnswer')
          : String(attempt.statusCode),
      );
  return el(
    'tr',
    { 'data-delivery-id': attempt.id },
    el('td', {}, when(attempt.attemptedAt)),
    el('td', {}, KIND_LABELS[attempt.kind] ? t(KIND_LABELS[attempt.kind]) : attempt.kind),
    el(
      'td',
      {},
      attempt.eventId === null
        ? el('span', { class: 'muted' }, t('console.webhooks.log.test'))
        : el('code', {}, String(attempt.eventId)),
    ),
    el(
      'td',
      { class: 'delivery-result' },
      result,
      attempt.error ? el('div', { class: 'muted' }, attempt.error) : null,
    ),
    el('td', { class: 'latency' }, latency(attempt)),
    el('td', {}, when(attempt.nextAttemptAt, '')),
    el(
      'td',
      { class: 'actions' },
      attempt.eventId === null
        ? null
        : button(
            t('console.webhooks.log.resend'),
            'secondary',
            () => void resend(ctx, state, attempt.eventId),
          ),
    ),
  );
}

async function resend(ctx, state, eventId) {
  const endpoint = state.log;
  try {
    const attempt = await api('POST', `${endpointPath(ctx, endpoint)}/resend`, {
      body: { eventId },
    });
    say(
      '#webhook-log-status',
      t('console.webhooks.resent', { id: String(eventId), outcome: outcome(attempt) }),
      succeeded(attempt) ? 'ok' : 'error',
    );
  } catch (error) {
    say('#webhook-log-status', errorText(error), 'error');
  }
  await loadLog(ctx, state);
}

/** Replay from an event id or from a local date and time (exactly one of them). */
function wireReplayForm(ctx, state) {
  const form = $('#webhook-replay');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const endpoint = state.log;
    const { fromEventId, fromTime } = formValues(form);
    if (Boolean(fromEventId) === Boolean(fromTime)) {
      say('#webhook-log-status', t('console.webhooks.log.oneOfTwo'), 'error');
      return;
    }
    const from = fromEventId
      ? { fromEventId: Number(fromEventId) }
      : { fromTime: new Date(fromTime).toISOString() };
    const what = fromEventId
      ? t('console.webhooks.log.fromEvent', { id: fromEventId })
      : formatDate(new Date(fromTime));
    const replayed = await confirmed(
      t('console.webhooks.log.confirmReplay', { from: what, url: endpoint.url }),
      { action: 'webhook.replay', applicationId: ctx.id, webhookId: endpoint.id, ...from },
      (token) =>
        api('POST', `${endpointPath(ctx, endpoint)}/replay`, {
          body: from,
          headers: confirmationHeader(token),
        }),
    );
    if (!replayed) return;
    form.reset();
    say(
      '#webhook-log-status',
      t('console.webhooks.log.replayed', { from: what, count: Number(replayed.events) }),
    );
    await Promise.all([loadEndpoints(ctx, state), loadLog(ctx, state)]);
  });
}
