import { groupOperations } from './operation-groups';
import type { ReferenceModel, ReferenceOperation } from './reference-model';

const op = (method: string, path: string, tags: string[], summary?: string): ReferenceOperation => ({
  method,
  path,
  id: `${method.toLowerCase()}${path.replace(/\W/g, '')}`,
  summary,
  tags,
  deprecated: false,
  parameters: [],
  responses: [],
});

const model = (operations: ReferenceOperation[], tags: string[] = []): ReferenceModel => ({
  title: 'API',
  tags: tags.map((name) => ({ name })),
  schemas: [],
  operations,
  webhooks: [],
});

describe('groupOperations', () => {
  it('orders tag pages as the spec declares its tags, then undeclared tags as met, then Other', () => {
    const groups = groupOperations(model([op('GET', '/a', []), op('GET', '/b', ['Zeta']), op('GET', '/c', ['Beta']), op('GET', '/d', ['Alpha', 'Beta']), op('POST', '/b', ['Zeta'])], ['Beta', 'Alpha']), false);
    expect(groups.map((g) => [g.title, g.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ['Beta', ['GET /c']],
      ['Alpha', ['GET /d']],
      ['Zeta', ['GET /b', 'POST /b']],
      ['Other', ['GET /a']],
    ]);
  });

  it('keeps a declared tag named Other in its declared place', () => {
    const groups = groupOperations(model([op('GET', '/a', ['B']), op('GET', '/b', ['Other'])], ['Other', 'B']), false);
    expect(groups.map((g) => g.title)).toEqual(['Other', 'B']);
  });

  it('makes one page per operation, even when two share a summary, with unique slugs', () => {
    const groups = groupOperations(model([op('GET', '/a', [], 'List'), { ...op('GET', '/b', [], 'List'), id: 'geta' }]), true);
    expect(groups.map((g) => [g.title, g.slug, g.operations.length])).toEqual([
      ['List', 'geta', 1],
      ['List', 'geta-2', 1],
    ]);
  });
});
