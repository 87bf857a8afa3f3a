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
  /** The organization the access checks let the work into; null once they named two. */
  organizationId?: string | null;
}

const storage = new AsyncLocalStorage<Scope>();

/**
 * In Node 20 an enabled AsyncLocalStorage runs a hook for every promise the process makes, whether
 * anyone asks for the store or not: about a hundred per request through Nest, some 15% of a read's
 * CPU. Only a change needs an actor, so the storage is enabled while a scope that may change
 * something is in flight (a write request, a job, an outbox dispatch), and disabled when none is:
 * reads, which open no scope, then run without the hooks. A scope is held until its work has
 * settled, and a little longer (`lingerMs`) for what its work started without waiting for (an
 * enqueue after commit): disabling the storage would hide the context from code still running in it.
 */
let holders = 0;

/** Counts a scope as in flight; the returned function ends that, after `lingerMs` (once, however often called). */
function hold(): (lingerMs: number) => void {
  holders++;
  let released = false;
  return (lingerMs) => {
    if (released) return;
    released = true;
    const drop = () => {
      if (--holders === 0) storage.disable();
    };
    if (lingerMs > 0) setTimeout(drop, lingerMs).unref();
    else drop();
  };
}

/** How long a scope stays counted after its work settles. */
export const SCOPE_LINGER_MS = 2000;

export const ActorContexts = {
  /** Runs `work` (a job, a dispatch) with `context`; the scope is held until its promise settles. */
  run<T>(context: ActorContext, work: () => T): T {
    const release = hold();
    const done = () => release(SCOPE_LINGER_MS);
    try {
      const result = storage.run({ context }, work);
      if (isThenable(result)) result.then(done, done);
      else done();
      return result;
    } catch (error) {
      done();
      throw error;
    }
  },
  /**
   * Runs a request's work in a scope of its own, whose context `settle` fills in later. The caller
   * ends the scope with the returned function once the request's work can no longer run.
   */
  openScope(work: () => void): (lingerMs: number) => void {
    const release = hold();
    try {
      storage.run({ context: undefined }, work);
    } catch (error) {
      release(SCOPE_LINGER_MS);
      throw error;
    }
    return release;
  },
  /** How many scopes are in flight (the storage is enabled while there is one). */
  scopesInFlight(): number {
    return holders;
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
  /**
   * Names the organization the work acts in, as an access check that let it in resolved it. When
   * neither the path (`/v1/spaces/{spaceId}/...`) nor the rows written name one, the audit log files
   * the change there (`checkedOrganization`). Work checked in two organizations names none: its
   * changes are not guessed into either's log.
   */
  noteOrganization(organizationId: string): void {
    const scope = storage.getStore();
    if (!scope || scope.organizationId === organizationId || scope.organizationId === null) return;
    scope.organizationId = scope.organizationId === undefined ? organizationId : null;
  },
  /** The one organization the work's access checks named, if they named exactly one. */
  checkedOrganization(): string | undefined {
    return storage.getStore()?.organizationId ?? undefined;
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
    return { actor: { type: 'system', job }, action: `job:${job}`, ip: null, userAgent: null, organizationId: null, pathIds: [], requestFields: [] };
  },
};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
