'use strict';
// Issue 15's targets in one run on one machine: runs bench:scale (merge, page tree, search at 1,000 to 100,000
// pages), bench (GET /v1/spaces/{id} against the bare node:http + pg servers) and bench:list (list page at
// 1,000 and 1,000,000 spaces) one after the other, shows their output, then prints every target with the
// figure measured for it.
// Usage: npm run build && npm run bench:targets   (each benchmark's own BENCH_* settings pass through; the
// request-path benchmark runs only GET /v1/spaces/{id} unless BENCH_ONLY says otherwise)
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Runs one benchmark script with its output shown; resolves with the figures it wrote. */
function runBenchmark(script, env = {}) {
  const resultFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), 'result.json');
  console.log(`\n=== ${script} (${new Date().toISOString()})`);
  const child = spawn(process.execPath, [path.join(__dirname, script)], {
    env: { ...process.env, ...env, BENCH_RESULT_FILE: resultFile },
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const figures = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
      fs.rmSync(path.dirname(resultFile), { recursive: true, force: true });
      resolve(figures);
    });
  });
}

const ratio = (x) => `${x.toFixed(2)}x`;
const ms = (x) => `${x.toFixed(1)} ms`;
const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** The targets' rows: [measure, figure, target, met]. */
function targets(scale, requestPath, list) {
  const rows = [];
  const merge = (size, limit) => {
    if (!scale[1000] || !scale[size]) return;
    for (const [kind, name] of [['fastForward', 'space unchanged'], ['threeWay', 'three-way']]) {
      const r = scale[size][kind].p50 / scale[1000][kind].p50;
      rows.push([`merge of a 10-page CR (${name}), p50 at ${size.toLocaleString('en')} / at 1,000 pages`, ratio(r), `at most ${limit}x`, r <= limit]);
    }
  };
  merge(10000, 1.5);
  merge(100000, 2);
  if (scale[10000]) rows.push(['page tree read at 10,000 pages, p50', ms(scale[10000].tree.p50), 'under 50 ms', scale[10000].tree.p50 < 50]);
  if (scale[100000]) rows.push(['space search at 100,000 pages, p95', ms(scale[100000].search.p95), 'under 200 ms', scale[100000].search.p95 < 200]);
  const read = requestPath['GET /v1/spaces/{id}'];
  if (read) {
    for (const baseline of ['bare', 'bare-prepared']) {
      const share = read.ours.requestsPerSecond / read[baseline].requestsPerSecond;
      const p99 = read.ours.p99 / read[baseline].p99;
      rows.push([
        `GET /v1/spaces/{id} against ${baseline}, 32 connections: throughput, p99 ratio`,
        `${pct(share)}, ${ratio(p99)}`,
        'at least 60%, at most 1.5x',
        share >= 0.6 && p99 <= 1.5,
      ]);
    }
  }
  const first = list.large.first / list.small.first;
  rows.push([`list page p50 at ${list.spaces.large.toLocaleString('en')} / at ${list.spaces.small.toLocaleString('en')} spaces`, ratio(first), 'at most 1.5x', first <= 1.5]);
  return rows;
}

async function main() {
  const started = Date.now();
  const scale = await runBenchmark('content-scale.js');
  const requestPath = await runBenchmark('run.js', { BENCH_ONLY: process.env.BENCH_ONLY || '/spaces/' });
  const list = await runBenchmark('list-scale.js');
  console.log(`\n=== issue 15's targets, one run (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, node ${process.version}, ${((Date.now() - started) / 60000).toFixed(0)} min)`);
  console.log('(bare is the baseline as issue 15 filed it, every statement unnamed; bare-prepared prepares what our API prepares)');
  for (const [measure, figure, target, met] of targets(scale, requestPath, list)) {
    console.log(`  ${measure.padEnd(78)} ${figure.padStart(16)}   target ${target.padEnd(27)} ${met ? 'met' : 'NOT MET'}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
