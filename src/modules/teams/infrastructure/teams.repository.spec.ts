import { containsPattern } from './teams.repository';

describe('containsPattern', () => {
  it('wraps the text in wildcards and escapes LIKE metacharacters', () => {
    expect(containsPattern('docs')).toBe('%docs%');
    expect(containsPattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });
});
