import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { ActorContext, ActorContexts, SCOPE_LINGER_MS } from './actor-context';
import { ABORTED_SCOPE_LINGER_MS, actorScope } from './actor-context.guard';

const context = (job: string): ActorContext => ActorContexts.forJob(job);

/** A promise the test settles when it chooses: work awaiting it stays in flight until then. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ActorContexts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(async () => {
    await jest.advanceTimersByTimeAsync(ABORTED_SCOPE_LINGER_MS);
    jest.useRealTimers();
    expect(ActorContexts.scopesInFlight()).toBe(0);
  });

  it('gives a run its context across awaits and holds the scope until its promise settled and lingered', async () => {
    const gate = deferred();
    const seen: Array<string | undefined> = [];
    const run = ActorContexts.run(context('a'), async () => {
      await gate.promise;
      seen.push(ActorContexts.current()?.action);
    });
    expect(ActorContexts.scopesInFlight()).toBe(1);
    gate.resolve();
    await run;
    expect(seen).toEqual(['job:a']);
    await jest.advanceTimersByTimeAsync(SCOPE_LINGER_MS - 1);
    expect(ActorContexts.scopesInFlight()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(ActorContexts.scopesInFlight()).toBe(0);
  });

  it('keeps a running scope its context when another scope ends before it', async () => {
    const gate = deferred();
    const seen: Array<string | undefined> = [];
    const long = ActorContexts.run(context('long'), async () => {
      await gate.promise;
      await Promise.resolve();
      seen.push(ActorContexts.current()?.action);
    });
    await ActorContexts.run(context('short'), async () => undefined);
    await jest.advanceTimersByTimeAsync(SCOPE_LINGER_MS);
    expect(ActorContexts.scopesInFlight()).toBe(1);
    gate.resolve();
    await long;
    expect(seen).toEqual(['job:long']);
  });

  it('turns the storage off once no scope is in flight: code outside every scope sees no context', async () => {
    const gate = deferred();
    const seen: Array<string | undefined> = [];
    // Work a scope started and did not wait for, still running after the scope ended and lingered.
    let straggler: Promise<void> | undefined;
    await ActorContexts.run(context('done'), async () => {
      straggler = gate.promise.then(() => void seen.push(ActorContexts.current()?.action));
    });
    await jest.advanceTimersByTimeAsync(SCOPE_LINGER_MS);
    expect(ActorContexts.scopesInFlight()).toBe(0);
    gate.resolve();
    await straggler;
    // What `lingerMs` is for: past it, the storage is off and even the scope's own stragglers see nothing.
    expect(seen).toEqual([undefined]);
    // A new scope turns it on again.
    await ActorContexts.run(context('again'), async () => {
      await Promise.resolve();
      seen.push(ActorContexts.current()?.action);
    });
    expect(seen).toEqual([undefined, 'job:again']);
  });

  it('releases the scope of a run that throws', () => {
    expect(() =>
      ActorContexts.run(context('throws'), () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(ActorContexts.scopesInFlight()).toBe(1);
  });

  it('names the organization the access checks named, unless they named two (then none is guessed)', async () => {
    const seen: Array<string | undefined> = [];
    await ActorContexts.run(context('one'), async () => {
      ActorContexts.noteOrganization('org-a');
      await Promise.resolve();
      ActorContexts.noteOrganization('org-a');
      seen.push(ActorContexts.checkedOrganization());
    });
    await ActorContexts.run(context('two'), async () => {
      ActorContexts.noteOrganization('org-a');
      ActorContexts.noteOrganization('org-b');
      ActorContexts.noteOrganization('org-a');
      seen.push(ActorContexts.checkedOrganization());
    });
    ActorContexts.noteOrganization('org-c');
    seen.push(ActorContexts.checkedOrganization());
    expect(seen).toEqual(['org-a', undefined, undefined]);
  });

  it('describes a request scope settled later, on first use', async () => {
    const describe = jest.fn(() => context('described'));
    const seen: Array<string | undefined> = [];
    const release = ActorContexts.openScope(() => {
      void Promise.resolve().then(() => {
        ActorContexts.settle(describe);
        seen.push(ActorContexts.current()?.action, ActorContexts.current()?.action);
      });
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual(['job:described', 'job:described']);
    expect(describe).toHaveBeenCalledTimes(1);
    release(0);
    release(0);
    expect(ActorContexts.scopesInFlight()).toBe(0);
  });
});

describe('actorScope middleware', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const response = () => Object.assign(new EventEmitter(), { writableFinished: false }) as unknown as Response & EventEmitter & { writableFinished: boolean };

  it.each(['GET', 'HEAD'])('opens no scope for a %s, so the storage stays off while only reads run', (method) => {
    let inside: number | undefined;
    const next: NextFunction = () => void (inside = ActorContexts.scopesInFlight());
    actorScope({ method } as Request, response(), next);
    expect(inside).toBe(0);
  });

  it('holds a write request scope until its response is done, then lingers briefly', async () => {
    const res = response();
    let settledAs: string | undefined;
    actorScope({ method: 'POST' } as Request, res, () => {
      ActorContexts.settle(() => context('post'));
      settledAs = ActorContexts.current()?.action;
    });
    expect(settledAs).toBe('job:post');
    expect(ActorContexts.scopesInFlight()).toBe(1);
    res.writableFinished = true;
    res.emit('close');
    await jest.advanceTimersByTimeAsync(SCOPE_LINGER_MS);
    expect(ActorContexts.scopesInFlight()).toBe(0);
  });

  it('holds an aborted write request scope much longer: its handler may still be running', async () => {
    const res = response();
    actorScope({ method: 'DELETE' } as Request, res, () => undefined);
    res.emit('close');
    await jest.advanceTimersByTimeAsync(SCOPE_LINGER_MS);
    expect(ActorContexts.scopesInFlight()).toBe(1);
    await jest.advanceTimersByTimeAsync(ABORTED_SCOPE_LINGER_MS);
    expect(ActorContexts.scopesInFlight()).toBe(0);
  });
});
