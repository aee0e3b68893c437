// Preloaded into a service process (node --require) by the tracing tests: as the process exits,
// writes one line to stderr counting the OpenTelemetry modules it had loaded.
process.once('exit', () => {
  const loaded = Object.keys(require.cache).filter((file) => file.includes('/@opentelemetry/'));
  process.stderr.write(`opentelemetry modules loaded: ${loaded.length}\n`);
});
