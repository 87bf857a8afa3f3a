import { inLanes } from './in-lanes';

describe('inLanes', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('runs every item with at most `lanes` at once, in order of start', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await inLanes([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('stops taking items after the first failure, and throws it once the others ended', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = inLanes([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 2) throw new Error('boom 2');
      if (item === 3) throw new Error('boom 3');
      finished++;
    });
    await expect(run).rejects.toThrow('boom 2');
    // 1 ended before 2 failed, so its lane took 3; nothing was taken after the failure.
    expect(started).toEqual([1, 2, 3]);
    expect(finished).toBe(1);
  });

  it('does nothing for no items', async () => {
    await expect(inLanes([], 4, async () => Promise.reject(new Error('never')))).resolves.toBeUndefined();
  });
});
