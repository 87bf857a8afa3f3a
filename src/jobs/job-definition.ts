/**
 * A job declared once: its name, the queue it runs on, how it is retried and bounded, and (as a
 * type parameter) the payload it carries. Modules enqueue and handle jobs through these values,
 * never through queue names or BullMQ.
 */
export interface JobDefinition<P extends object = object> {
  readonly name: string;
  readonly queue: string;
  /** Total tries, the first included. */
  readonly attempts: number;
  readonly backoff: { type: 'fixed' | 'exponential'; delayMs: number };
  /** A run longer than this fails (and is retried while attempts remain). */
  readonly timeoutMs: number;
  /** Jobs of this queue one worker process runs at once; jobs sharing a queue must agree on it. */
  readonly concurrency: number;
  /**
   * Fair turns between tenants: the group (organization) a payload belongs to, and how many of one
   * group's jobs a worker process runs at once (default: all slots but one). See FairTurns.
   */
  readonly fairTurns?: { groupOf(payload: P): string | undefined; perGroup?: number };
  /** Phantom field carrying the payload type; never set at run time. */
  readonly __payload?: P;
}

export type PayloadOf<D> = D extends JobDefinition<infer P> ? P : never;

const NAME = /^[a-z][a-z0-9-]{0,62}$/;

export function defineJob<P extends object>(definition: Omit<JobDefinition<P>, '__payload'>): JobDefinition<P> {
  if (!NAME.test(definition.name) || !NAME.test(definition.queue)) {
    throw new Error(`Job and queue names are lower-case words joined by dashes: ${definition.name} on ${definition.queue}`);
  }
  if (definition.attempts < 1 || definition.concurrency < 1 || definition.timeoutMs < 1) {
    throw new Error(`Job ${definition.name}: attempts, concurrency and timeoutMs must be positive`);
  }
  return Object.freeze({ ...definition });
}
