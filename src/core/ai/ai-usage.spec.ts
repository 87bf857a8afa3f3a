import { bucketsOf, creditsOf } from './ai-usage';

describe('AI usage', () => {
  it('costs a credit per call and per started thousand tokens', () => {
    expect(creditsOf(0)).toBe(1);
    expect(creditsOf(1)).toBe(2);
    expect(creditsOf(1000)).toBe(2);
    expect(creditsOf(1001)).toBe(3);
  });

  it('lists every calendar bucket the range touches, weeks from Monday', () => {
    expect(bucketsOf(new Date('2026-11-27T10:00:00Z'), new Date('2026-11-29T00:00:00Z'), 'day')).toEqual(['2026-11-27', '2026-11-28']);
    // 2026-11-29 is a Sunday: its week began on Monday the 23rd.
    expect(bucketsOf(new Date('2026-11-29T00:00:00Z'), new Date('2026-12-01T00:00:00Z'), 'week')).toEqual(['2026-11-23', '2026-11-30']);
    expect(bucketsOf(new Date('2026-01-15T00:00:00Z'), new Date('2026-03-02T00:00:00Z'), 'month')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(bucketsOf(new Date('2025-06-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'), 'year')).toEqual(['2025-01-01', '2026-01-01']);
  });
});
