import { COMMENT_BODY_MAX, commentBodyProblem, formatCommentBody, parseCommentBody } from './comment-body';

describe('parseCommentBody', () => {
  it('takes markdown as it is', () => {
    expect(parseCommentBody({ markdown: 'Hello **world**' })).toBe('Hello **world**');
    expect(parseCommentBody({ markdown: 'x'.repeat(COMMENT_BODY_MAX) })).toHaveLength(COMMENT_BODY_MAX);
  });

  it('turns a rich-text document into markdown', () => {
    const markdown = parseCommentBody({
      document: {
        object: 'document',
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'paragraph',
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Bold', marks: [{ object: 'mark', type: 'bold' }] }] }],
          },
        ],
      },
    });
    expect(markdown.trim()).toBe('**Bold**');
  });

  it('refuses empty, blank, over-long, malformed and ambiguous bodies', () => {
    expect(commentBodyProblem({})).toMatch(/exactly one/);
    expect(commentBodyProblem({ markdown: '' })).toMatch(/must not be empty/);
    expect(commentBodyProblem({ markdown: '  \n ' })).toMatch(/must not be empty/);
    expect(commentBodyProblem({ markdown: 'x'.repeat(COMMENT_BODY_MAX + 1) })).toMatch(/at most 20000/);
    expect(commentBodyProblem({ markdown: 3 })).toMatch(/body.markdown: must be a string/);
    expect(commentBodyProblem({ markdown: 'a', extra: 1 })).toMatch(/unknown property "extra"/);
    expect(commentBodyProblem({ markdown: 'a', document: { object: 'document', data: {}, nodes: [] } })).toMatch(/exactly one/);
    expect(commentBodyProblem({ document: { object: 'document', data: {}, nodes: [] } })).toMatch(/must not be empty/);
    expect(commentBodyProblem({ document: { object: 'nope' } })).toMatch(/body.document/);
    expect(commentBodyProblem('text')).toMatch(/must be an object/);
    expect(commentBodyProblem(null)).toMatch(/must be an object/);
    expect(commentBodyProblem(['a'])).toMatch(/must be an object/);
  });
});

describe('formatCommentBody', () => {
  it('answers markdown or a document tree', () => {
    expect(formatCommentBody('Hi *there*', 'markdown')).toEqual({ markdown: 'Hi *there*' });
    const { document } = formatCommentBody('Hi *there*', 'document') as { document: { object: string; nodes: { type: string }[] } };
    expect(document.object).toBe('document');
    expect(document.nodes[0].type).toBe('paragraph');
  });
});
