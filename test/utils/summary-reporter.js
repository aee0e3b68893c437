// Writes the run's totals to $JEST_SUMMARY_FILE (when set) for .ci/run's closing line.
const { writeFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_SUMMARY_FILE;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    writeFileSync(
      file,
      JSON.stringify({
        passed: results.numPassedTests,
        failed,
        skipped: results.numPendingTests + results.numTodoTests,
        suitesFailed: results.numFailedTestSuites,
      }),
    );
  }
}

module.exports = SummaryReporter;
