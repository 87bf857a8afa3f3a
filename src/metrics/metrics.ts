import { Counter, Gauge, Histogram, Metric, Registry, collectDefaultMetrics } from 'prom-client';
import { RouteDurations } from './route-durations';

/**
 * The process's Prometheus metrics. One registry per process: the API serves it on /metrics, the
 * worker on METRICS_PORT, and embedded mode (both in one process) serves both kinds on /metrics.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpDuration = new RouteDurations(
  'http_request_duration_seconds',
  'HTTP request duration by method, route template and status',
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);
registry.registerMetric(httpDuration as unknown as Metric);

export const jobRuns = new Counter({
  name: 'jobs_total',
  help: 'Job runs by job name and outcome (completed, retrying, failed)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'Job run duration by job name and outcome',
  labelNames: ['job', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
  registers: [registry],
});

type Sources = {
  queueDepth?: () => Promise<{ queue: string; counts: Record<string, number> }[]>;
  pool?: () => { total: number; idle: number; waiting: number } | undefined;
};
const sources: Sources = {};

/** Where the gauges read from; set by the process once its queues and database pool exist. */
export function trackSources(next: Sources): void {
  Object.assign(sources, next);
}

new Gauge({
  name: 'job_queue_depth',
  help: 'Jobs per queue and state',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const { queue, counts } of (await sources.queueDepth?.().catch(() => [])) ?? []) {
      for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
    }
  },
});

new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting clients)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = sources.pool?.();
    if (!pool) return;
    this.set({ state: 'total' }, pool.total);
    this.set({ state: 'idle' }, pool.idle);
    this.set({ state: 'waiting' }, pool.waiting);
  },
});
