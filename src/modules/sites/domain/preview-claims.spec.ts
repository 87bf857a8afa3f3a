import { parsePreviewClaims } from './preview-claims';

describe('parsePreviewClaims', () => {
  it('reads a Rison object, nested values included, and nothing as no claims', () => {
    expect(parsePreviewClaims("(plan:pro,beta:!t,seats:3,team:(name:'A B',tags:!(x,y)),gone:!n)")).toEqual({
      plan: 'pro',
      beta: true,
      seats: 3,
      team: { name: 'A B', tags: ['x', 'y'] },
      gone: null,
    });
    expect(parsePreviewClaims(undefined)).toEqual({});
    expect(parsePreviewClaims('')).toEqual({});
  });

  it('refuses what is not a Rison object, naming the parameter', () => {
    for (const text of ['(', '(plan:', '(a:1,)', '!(a,b)', 'pro', '42', '!t', '('.repeat(2000), `(k:'${'x'.repeat(4100)}')`]) {
      expect(() => parsePreviewClaims(text)).toThrow(/^claims: /);
    }
  });
});
