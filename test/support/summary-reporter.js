// Writes the run's totals to $JEST_SUMMARY_FILE (when set) for .ci/run, which prints the closing
// "N passed, M failed" line and fails the run when any test was skipped, pending or todo.
const { relative } = require('node:path');
const { writeFileSync } = require('node:fs');

const NOT_RUN = new Set(['pending', 'skipped', 'todo', 'disabled']);

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const file = process.env.JEST_SUMMARY_FILE;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    // Each test that did not run, named, so CI's failure says which.
    const skippedTests = results.testResults.flatMap((suite) =>
      suite.testResults
        .filter((test) => NOT_RUN.has(test.status))
        .map((test) => `${relative(this.rootDir, suite.testFilePath)}: ${test.fullName}`),
    );
    writeFileSync(
      file,
      JSON.stringify({
        passed: results.numPassedTests,
        failed,
        skipped: results.numPendingTests + results.numTodoTests,
        skippedTests,
        suitesFailed: results.numFailedTestSuites,
      }),
    );
  }
}

module.exports = SummaryReporter;
