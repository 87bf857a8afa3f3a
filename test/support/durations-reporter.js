/**
 * Prints how long each test file took, slowest first, at the end of a run (CI's log keeps it), and
 * writes every file's figure to `DURATIONS_FILE` when that is set.
 */
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');

class DurationsReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.top = options.top ?? 15;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({ file: relative(this.rootDir, file.testFilePath), seconds: (file.perfStats.end - file.perfStats.start) / 1000, failed: file.numFailingTests > 0 || !!file.testExecError }))
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length === 0) return;
    const total = files.reduce((sum, f) => sum + f.seconds, 0);
    const lines = files.slice(0, this.top).map((f) => `${f.seconds.toFixed(1).padStart(8)} s  ${f.file}${f.failed ? '  (failed)' : ''}`);
    process.stdout.write(`\nSlowest test files (${files.length} files, ${total.toFixed(0)} s in all, summed over workers):\n${lines.join('\n')}\n`);
    if (process.env.DURATIONS_FILE) writeFileSync(process.env.DURATIONS_FILE, `${JSON.stringify(files, null, 2)}\n`);
  }
}

module.exports = DurationsReporter;
