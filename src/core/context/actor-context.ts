import { AsyncLocalStorage } from 'node:async_hooks';

/** Who makes a change: a user through one of their API tokens, or the system running a job. */
export type Actor = { type: 'user'; userId: string; tokenId: string | null } | { type: 'system'; job: string };

/**
 * What the audit log and the event outbox need to know about the change in progress, without
 * every use case passing it along: the actor, the operation (an API operationId or `job:<name>`),
 * where the request came from, and the ids its path names.
 */
export interface ActorContext {
  actor: Actor;
  action: string;
  ip: string | null;
  userAgent: string | null;
  /** The organization the path names, when it names one. */
  organizationId: string | null;
  /** Ids named in the request path (`spaceId`, `changeRequestId`, ...). */
  pathIds: string[];
  /** The top-level fields of the request body: what the caller asked to change (names only). */
  requestFields: string[];
  /** A GET or HEAD: its transactions are not checked for writes the audit trail did not see. */
  reading: boolean;
}

/**
 * What the async context carries: a request opens its scope before routing (when the caller is not
 * known yet) and settles the context once the guards know who calls; a job runs with its context
 * settled from the start.
 */
interface Scope {
  context: ActorContext | undefined;
  /** Describes the context on first use: most requests (reads) never ask for it. */
  describe?: () => ActorContext;
}

const storage = new AsyncLocalStorage<Scope>();

export const ActorContexts = {
  run<T>(context: ActorContext, work: () => T): T {
    return storage.run({ context }, work);
  },
  /** Runs a request's work in a scope of its own, whose context `settle` fills in later. */
  openScope<T>(work: () => T): T {
    return storage.run({ context: undefined }, work);
  },
  /**
   * Names the context of the open request scope (outside one, there is nothing to name), described
   * by `describe` when first asked for: its inputs (caller, path, body) are fixed by then.
   */
  settle(describe: () => ActorContext): void {
    const scope = storage.getStore();
    if (scope) {
      scope.context = undefined;
      scope.describe = describe;
    }
  },
  /** The context of the request or job this code runs for; undefined outside both (start-up, CLI). */
  current(): ActorContext | undefined {
    const scope = storage.getStore();
    if (!scope) return undefined;
    if (!scope.context && scope.describe) {
      scope.context = scope.describe();
      scope.describe = undefined;
    }
    return scope.context;
  },
  forJob(job: string): ActorContext {
    return { actor: { type: 'system', job }, action: `job:${job}`, ip: null, userAgent: null, organizationId: null, pathIds: [], requestFields: [], reading: false };
  },
};
