'use strict';
// No-op jobs per second: `jobs` no-op jobs queued in bulk, then `workers` workers (each with its own
// connections, concurrency 8) take them all. Shared by bench:jobs and bench:engines.
const path = require('node:path');

const dist = (p) => path.join(__dirname, '..', 'dist', 'src', p);
const { JobBackend } = require(dist('jobs/bullmq/job-backend'));
const { JobRunner } = require(dist('jobs/bullmq/job-runner'));
const { defineJob } = require(dist('jobs/job-definition'));

const NoOp = defineJob({ name: 'bench-noop', queue: 'bench', attempts: 1, backoff: { type: 'fixed', delayMs: 1 }, timeoutMs: 10000, concurrency: 8 });

async function noOpThroughput(config, workers, jobs) {
  const producer = new JobBackend(config);
  const queue = producer.queue(NoOp.queue);
  for (let i = 0; i < jobs; i += 500) {
    await queue.addBulk(Array.from({ length: Math.min(500, jobs - i) }, (_, k) => ({ name: NoOp.name, data: { i: i + k }, opts: { removeOnComplete: true } })));
  }
  let done = 0;
  let finish;
  const all = new Promise((resolve) => (finish = resolve));
  const handler = { handle: async () => ((done += 1) === jobs && finish(), null) };
  const backends = Array.from({ length: workers }, () => new JobBackend(config));
  const runners = backends.map((b) => new JobRunner(b, [NoOp], new Map([[NoOp.name, handler]])));
  const start = performance.now();
  await Promise.all(runners.map((r) => r.start()));
  await all;
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(runners.map((r) => r.close()));
  await Promise.all(backends.map((b) => b.close()));
  await queue.obliterate({ force: true });
  await producer.close();
  return Math.round(jobs / seconds);
}

module.exports = { NoOp, noOpThroughput };
