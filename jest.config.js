const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
// The message formatter of the pages' catalogs (intl-messageformat and its parser) ships as ES
// modules only, which Jest's require cannot load before Node 24.9: compiled to CommonJS there.
// From 24.9 on Jest loads them as ES modules itself, and compiled ones would fail to run.
const [major, minor] = process.versions.node.split('.').map(Number);
const jestRequiresEsm = major > 24 || (major === 24 && minor >= 9);
const ESM_PACKAGES = jestRequiresEsm ? [] : ['intl-messageformat', '@formatjs'];
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
if (ESM_PACKAGES.length > 0) {
  transform[`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`] = [
    'ts-jest',
    { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false },
  ];
}
// Jest's default, apart from the packages compiled above.
const transformIgnorePatterns = [
  ESM_PACKAGES.length > 0 ? `/node_modules/(?!(${ESM_PACKAGES.join('|')})/)` : '/node_modules/',
  '\\.pnp\\.[^\\/]+$',
];

// e2e files that must not share the machine with other test files: they make the load they test
// (both cores spinning, bursts over two instances whose Redis windows expire in real time), so
// they run after the others, one at a time (docs/testing.md).
const SERIAL_E2E = ['rate-limit/rate-limit-instances', 'sessions/login-burst'].map(
  (name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`,
);

// Test files run in this many processes side by side; TEST_WORKERS overrides the number of
// cores (.ci/run, which runs two suites at once, gives each half of them).
const workers = Number(process.env.TEST_WORKERS) || availableParallelism();

// Every e2e file: its worker's database (test/support/worker-env.ts).
const e2e = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  setupFiles: ['<rootDir>/test/support/worker-env.ts'],
  transform,
  transformIgnorePatterns,
};

module.exports = {
  // Unit tests sit beside the source; e2e tests run the whole app over HTTP against a real database.
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      ...e2e,
      displayName: 'e2e',
      testMatch: ['**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...SERIAL_E2E],
    },
    {
      ...e2e,
      displayName: 'e2e-serial',
      testMatch: SERIAL_E2E,
      runner: '<rootDir>/test/support/serial-runner.js',
    },
  ],
  maxWorkers: workers,
  // A jest worker keeps some memory of every test file it ran (module registries that stay
  // referenced); over the ~180 files of one worker in CI that reached V8's 4 GB heap limit. A
  // worker past this much after a file is replaced by a fresh one. Setting it also makes jest use
  // a worker process when it has only one (else it would run in band, where nothing is recycled).
  workerIdleMemoryLimit: '1.5GB',
  // Once per run: the migrated embedded data directory every app copies instead of creating and
  // migrating its own, and the workers' databases with DATABASE_URL (docs/testing.md).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // e2e tests boot the whole service (and sometimes child processes) per file. A bound for a
  // starved machine, not a latency expectation: at load 20 on 2 cores, tests that start a
  // service process (which creates an in-memory PGlite) ran past 60 s.
  testTimeout: 120000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
