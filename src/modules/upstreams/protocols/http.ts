import { UpstreamError } from '../providers/upstream-provider';

/** Every call to a provider gives up after this long: a slow provider is an unavailable one. */
export const UPSTREAM_TIMEOUT_MS = 10_000;

/**
 * fetch with the timeout, answering JSON or UpstreamError: network failures and timeouts are
 * `unavailable`, a 5xx too; anything that is not a JSON object is `invalid_response`. 4xx bodies
 * are returned (with their status) because several providers explain errors in them.
 */
export async function fetchJson(
  url: string | URL,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = await fetchText(url, init);
  let body: unknown;
  try {
    body = JSON.parse(text.body);
  } catch {
    throw new UpstreamError('invalid_response', `${hostOf(url)} did not answer JSON`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UpstreamError('invalid_response', `${hostOf(url)} did not answer a JSON object`);
  }
  return { status: text.status, body: body as Record<string, unknown> };
}

/** Like fetchJson, for answers that must be a JSON array (GitHub's /user/emails). */
export async function fetchJsonArray(
  url: string | URL,
  init: RequestInit = {},
): Promise<unknown[]> {
  const text = await fetchText(url, init);
  let body: unknown;
  try {
    body = JSON.parse(text.body);
  } catch {
    throw new UpstreamError('invalid_response', `${hostOf(url)} did not answer JSON`);
  }
  if (!Array.isArray(body)) {
    throw new UpstreamError('invalid_response', `${hostOf(url)} did not answer a JSON array`);
  }
  return body as unknown[];
}

export async function fetchText(
  url: string | URL,
  init: RequestInit = {},
): Promise<{ status: number; body: string }> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    body = await response.text();
  } catch {
    throw new UpstreamError('unavailable', `${hostOf(url)} could not be reached`);
  }
  if (response.status >= 500) {
    throw new UpstreamError('unavailable', `${hostOf(url)} answered ${response.status}`);
  }
  return { status: response.status, body };
}

/** Only the host goes into messages: URLs may carry codes or tokens. */
function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the provider';
  }
}

export function stringField(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A provider-supplied scalar for an error message (never objects; bounded by the caller). */
export function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
