import { Injectable } from '@nestjs/common';

/** Runs async work one at a time per key, in arrival order, within this process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => turn);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Writers of one change request (edits, updates, merges) and mergers into one space take turns
 * within this API process, so concurrent requests do not waste work losing compare-and-set
 * races to one another. Correctness does not depend on it: every write is still a
 * compare-and-set in the database (other processes race as usual). Lock order: space, then
 * change request.
 */
@Injectable()
export class ChangeRequestLocks {
  private readonly spaces = new KeyedMutex();
  private readonly changeRequests = new KeyedMutex();

  space<T>(spaceId: string, work: () => Promise<T>): Promise<T> {
    return this.spaces.run(spaceId, work);
  }

  changeRequest<T>(changeRequestId: string, work: () => Promise<T>): Promise<T> {
    return this.changeRequests.run(changeRequestId, work);
  }
}
