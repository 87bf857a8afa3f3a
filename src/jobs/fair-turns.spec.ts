import { FairTurns, turnsPerGroup } from './fair-turns';

describe('FairTurns', () => {
  it('lets a group hold its share of slots and no more, per queue', () => {
    const turns = new FairTurns();
    expect(turns.take('openapi', 'a', 1)).toBe(true);
    expect(turns.take('openapi', 'a', 1)).toBe(false);
    expect(turns.take('openapi', 'b', 1)).toBe(true);
    expect(turns.take('imports', 'a', 1)).toBe(true);
    turns.release('openapi', 'a');
    expect(turns.take('openapi', 'a', 1)).toBe(true);
  });

  it('parks a job turned away for longer each time, up to a bound, and forgets it once started', () => {
    const turns = new FairTurns(100, 350);
    expect([1, 2, 3, 4].map(() => turns.park('q', 'a', 'j'))).toEqual([100, 200, 350, 350]);
    expect(turns.park('q', 'a', 'k')).toBe(100);
    turns.started('q', 'a', 'j');
    expect(turns.park('q', 'a', 'j')).toBe(100);
  });

  it("calls back the group's oldest parked job when one of its turns frees, one per turn, each once", () => {
    const turns = new FairTurns();
    expect(turns.take('q', 'a', 1)).toBe(true);
    for (const id of ['j1', 'j2', 'j3']) turns.park('q', 'a', id);
    turns.park('q', 'b', 'other');
    // j2 came back on its own and ran: it is no longer parked.
    turns.started('q', 'a', 'j2');
    expect(turns.release('q', 'a')).toBe('j1');
    expect(turns.take('q', 'a', 1)).toBe(true);
    expect(turns.release('q', 'a')).toBe('j3');
    expect(turns.release('q', 'a')).toBeUndefined();
    // Another group's parked job waits for its own group's turns.
    expect(turns.release('q', 'b')).toBe('other');
  });

  it('keeps one slot of a worker for other groups unless told otherwise', () => {
    expect(turnsPerGroup(2)).toBe(1);
    expect(turnsPerGroup(4)).toBe(3);
    expect(turnsPerGroup(1)).toBe(1);
    expect(turnsPerGroup(4, 2)).toBe(2);
  });
});
