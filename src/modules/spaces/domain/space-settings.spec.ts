import { contentPositionProblem } from './space-settings';

describe('space settings', () => {
  describe('contentPositionProblem', () => {
    it('accepts space and collection pointers', () => {
      expect(contentPositionProblem({})).toBeNull();
      expect(contentPositionProblem({ before: { type: 'space', space: 's1' }, after: { type: 'collection', collection: 'c1' } })).toBeNull();
    });

    it.each([
      ['x', /object/],
      [{ middle: {} }, /middle/],
      [{ before: { type: 'page', page: 'p' } }, /before.*type/],
      [{ after: { type: 'space' } }, /after.*space/],
      [{ after: { type: 'space', space: 's', collection: 'c' } }, /collection/],
      [{ before: { type: 'collection', collection: '' } }, /collection/],
    ])('refuses %j', (value, message) => {
      expect(contentPositionProblem(value)).toMatch(message);
    });
  });
});
