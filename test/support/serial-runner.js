// Jest's own test runner, told to run its files one at a time in the main process (what
// --runInBand does for a whole run), for the e2e-serial project (jest.config.js). Jest runs the
// groups of files of different runners one group after the other, so these files run after the
// parallel ones, alone on the machine's cores.
const { dirname } = require('node:path');

// jest-runner is jest's own dependency (the same version); found from jest's core package.
const core = dirname(require.resolve('@jest/core', { paths: [dirname(require.resolve('jest'))] }));
const TestRunner = require(require.resolve('jest-runner', { paths: [core] })).default;

class SerialRunner extends TestRunner {
  isSerial = true;
}

module.exports = SerialRunner;
