/**
 * The trace id of the request being served, when tracing is on. The SDK sets the reader at boot
 * (tracing-sdk.ts); without tracing it stays a function that answers undefined, so the access log
 * can ask without loading any OpenTelemetry module.
 */
let reader: () => string | undefined = () => undefined;

export function currentTraceId(): string | undefined {
  return reader();
}

export function readTraceIdWith(read: () => string | undefined): void {
  reader = read;
}
