import { extractLinks } from '../../../content/domain/markdown';
import type { RevisionContent } from '../../../content/domain/revision-content';
import { applyChanges } from './apply-changes';
import { SPACE_TEMPLATES, findTemplate, parseTemplateParams, templateChanges } from './templates';

const empty = (): RevisionContent => ({ pages: [], files: [], variables: {}, reusableContents: [] });

let n = 0;

function apply(content: RevisionContent, id: string, params?: Record<string, unknown>) {
  const template = findTemplate(id);
  return applyChanges({
    content,
    documents: new Map(),
    changes: templateChanges(template, parseTemplateParams(template, params)),
    baseRevisionId: 'b',
    revisions: new Map(),
    files: new Map(),
    now: '2026-01-01T00:00:00.000Z',
    newId: () => `${id}-${++n}`,
  });
}

describe('space templates', () => {
  it.each([
    ['blank-page', [['Untitled', 'untitled', []]]],
    ['getting-started', [['Getting started', 'getting-started', ['installation', 'quickstart', 'configuration']]]],
    ['api-reference', [['API reference', 'api-reference', ['authentication', 'errors', 'pagination']]]],
    ['faq', [['FAQ', 'faq', []]]],
  ])('%s inserts its pages, with links between them resolved', (id, expected) => {
    const result = apply(empty(), id);
    expect(result.content.pages.map((p) => [p.title, p.slug, p.pages.map((c) => c.slug)])).toEqual(expected);
    const ids = new Set<string>();
    const visit = (pages: RevisionContent['pages']) => pages.forEach((p) => (ids.add(p.id), visit(p.pages)));
    visit(result.content.pages);
    for (const body of result.documents.values()) {
      for (const link of extractLinks(body)) {
        if (link.ref.kind === 'page') expect(ids.has(link.ref.page)).toBe(true);
        else expect(link.ref.kind).toBe('url');
        if (link.ref.kind === 'url') expect(link.ref.url).toMatch(/^https:/);
      }
    }
  });

  it('links the template pages to each other, also when applied twice', () => {
    const once = apply(empty(), 'getting-started');
    const twice = apply(once.content, 'getting-started');
    const second = twice.content.pages[1];
    expect(second.slug).toBe('getting-started-2');
    const body = twice.documents.get(second.documentHash!)!;
    expect(extractLinks(body).map((l) => l.ref)).toEqual(second.pages.map((p) => ({ kind: 'page', page: p.id })));
  });

  it('takes the spec URL of api-reference, and refuses other references', () => {
    const result = apply(empty(), 'api-reference', { contentRefs: { spec: { kind: 'url', url: 'https://example.com/openapi.yaml' } } });
    const body = result.documents.get(result.content.pages[0].documentHash!)!;
    expect(body).toContain('(https://example.com/openapi.yaml)');
    expect(() => apply(empty(), 'api-reference', { contentRefs: { other: { kind: 'url', url: 'https://e.com' } } })).toThrow(
      'params.contentRefs.other: template "api-reference" accepts only "spec"',
    );
    expect(() => apply(empty(), 'api-reference', { contentRefs: { spec: { kind: 'page', page: 'x' } } })).toThrow('takes a "url" reference');
    expect(() => apply(empty(), 'api-reference', { contentRefs: { spec: { kind: 'url', url: 'javascript:alert(1)' } } })).toThrow('must be an absolute http(s) URL');
    expect(() => apply(empty(), 'faq', { contentRefs: { spec: { kind: 'url', url: 'https://e.com' } } })).toThrow('template "faq" takes no content references');
    expect(() => apply(empty(), 'faq', { other: 1 })).toThrow('params.other: property should not exist');
  });

  it('refuses unknown templates, listing the built-in ones', () => {
    expect(() => findTemplate('nope')).toThrow(`id: unknown template "nope"; built-in templates: ${SPACE_TEMPLATES.map((t) => `"${t.id}"`).join(', ')}`);
  });
});
