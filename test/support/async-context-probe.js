// Preloaded into a service process (node --require) by the logs test: counts how often an
// AsyncLocalStorage is entered (run or enterWith) and, as the process exits, writes one line to
// stderr with the count and where the first one came from (docs/operations.md, "Logs").
const { AsyncLocalStorage } = require('node:async_hooks');

let entered = 0;
let first = '';
for (const name of ['run', 'enterWith']) {
  const original = AsyncLocalStorage.prototype[name];
  AsyncLocalStorage.prototype[name] = function (...args) {
    entered += 1;
    if (!first) first = new Error().stack.split('\n').slice(2, 5).join(' < ');
    return original.apply(this, args);
  };
}
process.once('exit', () => {
  process.stderr.write(
    `async context stores entered: ${entered}${first ? ` (first ${first})` : ''}\n`,
  );
});
