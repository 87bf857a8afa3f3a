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

  it('makes a job turned away wait longer each time, up to a bound, and forgets it once started', () => {
    const turns = new FairTurns(100, 350);
    expect([turns.waitFor('j'), turns.waitFor('j'), turns.waitFor('j'), turns.waitFor('j')]).toEqual([100, 200, 350, 350]);
    expect(turns.waitFor('k')).toBe(100);
    turns.started('j');
    expect(turns.waitFor('j')).toBe(100);
  });

  it('keeps one slot of a worker for other groups unless told otherwise', () => {
    expect(turnsPerGroup(2)).toBe(1);
    expect(turnsPerGroup(4)).toBe(3);
    expect(turnsPerGroup(1)).toBe(1);
    expect(turnsPerGroup(4, 2)).toBe(2);
  });
});
