import { parseContentUpdateBody } from './changes';

const page = { operation: 'insert_page', document: {} };

describe('parseContentUpdateBody', () => {
  it('parses every operation', () => {
    const changes = parseContentUpdateBody({
      changes: [
        { operation: 'insert_page', title: 'T', slug: 's', into: 'p', at: 0, ref: 'r', document: { markdown: '# x' }, noIndex: false, condition: '' },
        { operation: 'update_page', page: 'p', into: null, document: {} },
        { operation: 'delete_page', page: 'p' },
        { operation: 'revert_page', page: 'p', revision: 'r', block: ['1', '1', '2'] },
        { operation: 'insert_files', files: [{ name: 'a.png', contentType: 'image/png', base64: 'iVBO\nRw==' }, { name: 'b', url: 'https://example.com/b' }] },
      ],
    });
    expect(changes).toEqual([
      { operation: 'insert_page', fields: { title: 'T', slug: 's' }, into: 'p', at: 0, ref: 'r', document: { kind: 'markdown', markdown: '# x' } },
      { operation: 'update_page', page: 'p', fields: {}, document: { kind: 'empty' }, into: null, at: undefined },
      { operation: 'delete_page', page: 'p' },
      { operation: 'revert_page', page: 'p', revision: 'r', block: ['1', '2'] },
      {
        operation: 'insert_files',
        files: [
          { name: 'a.png', contentType: 'image/png', ref: undefined, source: { kind: 'base64', base64: 'iVBORw==' } },
          { name: 'b', contentType: undefined, ref: undefined, source: { kind: 'url', url: 'https://example.com/b' } },
        ],
      },
    ]);
  });

  it('takes 1 to 50 changes', () => {
    expect(parseContentUpdateBody({ changes: Array(50).fill(page) })).toHaveLength(50);
    expect(() => parseContentUpdateBody({ changes: Array(51).fill(page) })).toThrow('changes: must contain at most 50 changes (got 51)');
    expect(() => parseContentUpdateBody({ changes: [] })).toThrow('changes: must contain at least 1 change');
    expect(() => parseContentUpdateBody({})).toThrow('changes: is required');
    expect(() => parseContentUpdateBody({ changes: {} })).toThrow('changes: must be an array');
    expect(() => parseContentUpdateBody([])).toThrow('The body must be a JSON object');
    expect(() => parseContentUpdateBody({ changes: [page], extra: 1 })).toThrow('extra: property should not exist');
  });

  it.each([
    [{ operation: 'rename_page' }, 'changes[0].operation: must be one of "insert_page", "update_page", "delete_page", "revert_page", "insert_files"'],
    [{ page: 'x' }, 'changes[0].operation: is required'],
    [{ operation: 'insert_page' }, 'changes[0].document: is required'],
    [{ ...page, colour: 'red' }, 'changes[0].colour: property should not exist'],
    [{ ...page, title: 3 }, 'changes[0].title: must be a string'],
    [{ ...page, title: '' }, 'changes[0].title: must be at least 1 character(s) long'],
    [{ ...page, title: 'x'.repeat(257) }, 'changes[0].title: must be at most 256 characters long'],
    [{ ...page, slug: 'a/b' }, 'changes[0].slug: must be a single URL path segment'],
    [{ ...page, slug: '' }, 'changes[0].slug: must not be empty'],
    [{ ...page, at: -1 }, 'changes[0].at: must be an integer not less than 0'],
    [{ ...page, at: 1.5 }, 'changes[0].at: must be an integer not less than 0'],
    [{ ...page, hidden: 'yes' }, 'changes[0].hidden: must be a boolean'],
    [{ ...page, noIndex: true }, 'changes[0].noIndex: is not supported by this server'],
    [{ ...page, condition: 'visitor.claims.x' }, 'changes[0].condition: is not supported by this server'],
    [{ ...page, ref: 'has space' }, 'changes[0].ref: must not contain whitespace'],
    [{ ...page, document: { markdown: 1 } }, 'changes[0].document.markdown: must be a string'],
    [{ ...page, document: { markdown: 'x', extra: 1 } }, 'changes[0].document.extra: property should not exist'],
    [{ ...page, document: { other: 1 } }, 'changes[0].document.other: property should not exist'],
    [{ ...page, document: 'text' }, 'changes[0].document: must be an object'],
    [{ ...page, document: { document: { object: 'block', nodes: [] } } }, 'changes[0].document.document.object: must be "document"'],
    [{ ...page, document: { document: { object: 'document', nodes: [{ object: 'text' }] } } }, 'changes[0].document.document.nodes[0].object: must be one of "block"'],
    [{ operation: 'update_page' }, 'changes[0].page: is required'],
    [{ operation: 'update_page', page: 'p', into: 5 }, 'changes[0].into: must be a string'],
    [{ operation: 'delete_page', page: 'p', title: 'x' }, 'changes[0].title: property should not exist'],
    [{ operation: 'revert_page', page: 'p', block: [] }, 'changes[0].block: must name at least one block'],
    [{ operation: 'revert_page', page: 'p', block: [1] }, 'changes[0].block[0]: must be a string'],
    [{ operation: 'insert_files', files: [] }, 'changes[0].files: must contain at least 1 file'],
    [{ operation: 'insert_files', files: Array(21).fill({ name: 'a', url: 'https://e.com' }) }, 'changes[0].files: must contain at most 20 files'],
    [{ operation: 'insert_files', files: [{ name: 'a' }] }, 'changes[0].files[0]: set exactly one of "url" and "base64"'],
    [{ operation: 'insert_files', files: [{ name: 'a', url: 'https://e.com', base64: 'AA==' }] }, 'changes[0].files[0]: set exactly one of'],
    [{ operation: 'insert_files', files: [{ name: 'a', base64: 'AA==' }] }, 'changes[0].files[0].contentType: is required with "base64"'],
    [{ operation: 'insert_files', files: [{ name: 'a', contentType: 'png', base64: 'AA==' }] }, 'changes[0].files[0].contentType: must be a MIME type'],
    [{ operation: 'insert_files', files: [{ name: 'a', contentType: 'image/png', base64: 'A*==' }] }, 'changes[0].files[0].base64: must be valid base64'],
    [{ operation: 'insert_files', files: [{ name: 'a/b', url: 'https://e.com' }] }, 'changes[0].files[0].name: must not be blank nor contain slashes'],
    [{ operation: 'insert_files', files: [{ name: 'a', url: 'ftp://e.com/x' }] }, 'changes[0].files[0].url: must be an absolute http(s) URL'],
    [{ operation: 'insert_files', files: [{ name: 'a', url: 'https://u:p@e.com/x' }] }, 'changes[0].files[0].url: must not carry credentials'],
  ])('refuses %j', (change, message) => {
    expect(() => parseContentUpdateBody({ changes: [page, change].slice(1) })).toThrow(message);
  });

  it('names the change by its index', () => {
    expect(() => parseContentUpdateBody({ changes: [page, page, { operation: 'delete_page' }] })).toThrow('changes[2].page: is required');
  });

  it('limits inline bytes to 1 MB', () => {
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(() => parseContentUpdateBody({ changes: [{ operation: 'insert_files', files: [{ name: 'a', contentType: 'text/plain', base64: big }] }] })).toThrow(
      'changes[0].files[0].base64: must encode at most 1 MB',
    );
  });
});
