import { Webhook } from 'standardwebhooks';

/** Connect plus the whole exchange must finish within this (docs/webhooks.md, "Timeouts"). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read (for the delivery log); the rest is dropped. */
export const MAX_RESPONSE_BYTES = 4096;
/** Errors in the delivery log are cut to this length (the column's). */
export const MAX_ERROR_LENGTH = 500;

export const WEBHOOK_USER_AGENT = 'identity-service-webhooks/1';

/** One signed POST to make. */
export interface OutgoingWebhook {
  url: string;
  /** The secret in clear, `whsec_…`. */
  secret: string;
  /** webhook-id: the event's stable id, the same on every retry. */
  messageId: string;
  body: string;
}

/** What came of one POST: a status (any), or an error when no response arrived. */
export interface SendOutcome {
  status: number | null;
  retryAfter: string | null;
  error: string | null;
  latencyMs: number;
}

/**
 * POSTs one event with the Standard Webhooks headers (webhook-id, webhook-timestamp,
 * webhook-signature, signed by the `standardwebhooks` library). Redirects are not followed (a
 * 3xx is a failure like any other non-2xx), the whole exchange is bounded by
 * DELIVERY_TIMEOUT_MS, and at most MAX_RESPONSE_BYTES of the body are read. The signature
 * timestamp is the wall clock, which is what the receiver checks it against.
 */
export async function sendWebhook(message: OutgoingWebhook): Promise<SendOutcome> {
  const started = performance.now();
  const signedAt = new Date();
  const signature = new Webhook(message.secret).sign(message.messageId, signedAt, message.body);
  const latency = (): number => Math.round(performance.now() - started);
  try {
    const response = await fetch(message.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': message.messageId,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: message.body,
    });
    const text = await readPrefix(response);
    const ok = response.status >= 200 && response.status < 300;
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      error: ok ? null : truncate(`HTTP ${response.status}${text ? `: ${text}` : ''}`),
      latencyMs: latency(),
    };
  } catch (error) {
    return {
      status: null,
      retryAfter: null,
      error: truncate(describe(error)),
      latencyMs: latency(),
    };
  }
}

/** The first MAX_RESPONSE_BYTES of the body as text; the rest is cancelled, not read. */
async function readPrefix(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_RESPONSE_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const value = chunk.value;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no response within ${DELIVERY_TIMEOUT_MS} ms`;
  }
  const cause = error instanceof Error ? (error.cause as Error | undefined) : undefined;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function truncate(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? text.slice(0, MAX_ERROR_LENGTH) : text;
}
