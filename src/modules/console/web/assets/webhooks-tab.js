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
  formValues,
  say,
  showSecret,
  when,
} from './core.js';

const KIND_LABELS = { delivery: 'Delivery', resend: 'Resend', test: 'Test' };

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
      'No endpoints yet.',
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
        : el('span', { class: 'muted' }, 'all'),
    ),
    el('td', { class: 'status' }, statusOf(endpoint)),
    el('td', {}, deliveryOf(endpoint)),
    el(
      'td',
      { class: 'actions wrap' },
      button('Delivery log', 'secondary', run(openLog)),
      button('Send test event', 'secondary', run(sendTest)),
      button(endpoint.enabled ? 'Disable' : 'Enable', 'secondary', run(toggleEnabled)),
      button('Edit', 'secondary', () => state.edit(endpoint)),
      button('Rotate secret', 'secondary', run(rotate)),
      button('Delete', 'danger', run(remove)),
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
      ? el('span', { class: 'badge ok' }, 'Enabled')
      : el('span', { class: 'badge off' }, 'Disabled'),
  ];
  if (!endpoint.enabled && endpoint.disabledReason) {
    parts.push(el('div', { class: 'muted' }, endpoint.disabledReason));
  }
  if (endpoint.previousSecretUntil && new Date(endpoint.previousSecretUntil) > new Date()) {
    parts.push(
      el('div', { class: 'muted' }, 'Old secret signs until ', when(endpoint.previousSecretUntil)),
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
        ? ['Last event ', el('code', {}, String(endpoint.lastDeliveredEventId))]
        : el('span', { class: 'muted' }, 'No event yet'),
    ),
  ];
  if (endpoint.failingSince) {
    parts.push(
      el(
        'div',
        {},
        el('span', { class: 'badge warn' }, 'Failing'),
        ' since ',
        when(endpoint.failingSince),
      ),
    );
  }
  if (endpoint.nextAttemptAt) {
    parts.push(el('div', { class: 'muted' }, 'Next attempt ', when(endpoint.nextAttemptAt)));
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
      `Add the webhook endpoint ${url} (${describeTypes(eventTypes)}).`,
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
    say('#webhooks-status', `Endpoint ${created.endpoint.url} added.`);
    showSecret('webhook-secret', created.secret);
    await loadEndpoints(ctx, state);
  });
}

const describeTypes = (types) => (types.length > 0 ? types.join(', ') : 'all event types');

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
    $('#webhook-edit-title').textContent = `Edit ${endpoint.url}`;
    toggle(true);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(form, async () => {
      try {
        if (await saveEdit(ctx, editing, formValues(form))) {
          toggle(false);
          say('#webhooks-status', 'Endpoint saved.');
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
      `Send the events of endpoint ${endpoint.url} to ${url} from now on.`,
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
    say('#webhooks-status', `Endpoint ${endpoint.url} ${enabled ? 'enabled' : 'disabled'}.`);
  } catch (error) {
    say('#webhooks-status', errorText(error), 'error');
  }
  await loadEndpoints(ctx, state);
}

// ---------------------------------------------------------------- secret, delete, test

async function rotate(ctx, state, endpoint) {
  const rotated = await confirmed(
    `Rotate the signing secret of ${endpoint.url}. The current secret keeps signing beside the ` +
      'new one for 24 hours.',
    { action: 'webhook.rotate_secret', applicationId: ctx.id, webhookId: endpoint.id },
    (token) =>
      api('POST', `${endpointPath(ctx, endpoint)}/rotate-secret`, {
        headers: confirmationHeader(token),
      }),
  );
  if (!rotated) return;
  say('#webhooks-status', [
    `New secret for ${endpoint.url}. The old one keeps signing until `,
    when(rotated.endpoint.previousSecretUntil),
    ': switch your receiver before then.',
  ]);
  showSecret('webhook-secret', rotated.secret);
  await loadEndpoints(ctx, state);
}

async function remove(ctx, state, endpoint) {
  const done = await confirmed(
    `Delete the webhook endpoint ${endpoint.url} with its delivery log. This cannot be undone.`,
    { action: 'webhook.delete', applicationId: ctx.id, webhookId: endpoint.id },
    async (token) => {
      await api('DELETE', endpointPath(ctx, endpoint), { headers: confirmationHeader(token) });
      return true;
    },
  );
  if (!done) return;
  if (state.log?.id === endpoint.id) closeLog(state);
  say('#webhooks-status', `Endpoint ${endpoint.url} deleted.`);
  await loadEndpoints(ctx, state);
}

async function sendTest(ctx, state, endpoint) {
  say('#webhooks-status', `Sending a test event to ${endpoint.url}…`, 'warn');
  try {
    const attempt = await api('POST', `${endpointPath(ctx, endpoint)}/test`);
    say(
      '#webhooks-status',
      `Test event to ${endpoint.url}: ${outcome(attempt)}`,
      succeeded(attempt) ? 'ok' : 'error',
    );
  } catch (error) {
    say('#webhooks-status', errorText(error), 'error');
  }
  if (state.log?.id === endpoint.id) await loadLog(ctx, state);
}

const succeeded = (attempt) =>
  attempt.statusCode !== null && attempt.statusCode < 300 && !attempt.error;

const latency = (attempt) => `${Number(attempt.latencyMs).toLocaleString()} ms`;

function outcome(attempt) {
  if (succeeded(attempt)) return `delivered, HTTP ${attempt.statusCode} in ${latency(attempt)}.`;
  const status = attempt.statusCode === null ? 'no answer' : `HTTP ${attempt.statusCode}`;
  return `failed, ${status}${attempt.error ? ': ' + attempt.error : ''}.`;
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
      'No attempts yet.',
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
        attempt.statusCode === null ? 'No answer' : String(attempt.statusCode),
      );
  return el(
    'tr',
    { 'data-delivery-id': attempt.id },
    el('td', {}, when(attempt.attemptedAt)),
    el('td', {}, KIND_LABELS[attempt.kind] ?? attempt.kind),
    el(
      'td',
      {},
      attempt.eventId === null
        ? el('span', { class: 'muted' }, 'test')
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
        : button('Resend', 'secondary', () => void resend(ctx, state, attempt.eventId)),
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
      `Event ${eventId} resent: ${outcome(attempt)}`,
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
      say('#webhook-log-status', 'Give an event id or a date and time, not both.', 'error');
      return;
    }
    const from = fromEventId
      ? { fromEventId: Number(fromEventId) }
      : { fromTime: new Date(fromTime).toISOString() };
    const what = fromEventId ? `event ${fromEventId}` : new Date(fromTime).toLocaleString();
    const replayed = await confirmed(
      `Send the events of this application from ${what} on to ${endpoint.url} again.`,
      { action: 'webhook.replay', applicationId: ctx.id, webhookId: endpoint.id, ...from },
      (token) =>
        api('POST', `${endpointPath(ctx, endpoint)}/replay`, {
          body: from,
          headers: confirmationHeader(token),
        }),
    );
    if (!replayed) return;
    form.reset();
    const count = Number(replayed.events).toLocaleString();
    say(
      '#webhook-log-status',
      `Replay from ${what}: ${count} event${replayed.events === 1 ? '' : 's'} to send again, in order.`,
    );
    await Promise.all([loadEndpoints(ctx, state), loadLog(ctx, state)]);
  });
}
