import { MARKDOWN_LIMITS, MarkdownTooComplexError, parseTokens } from './parser';
import { markdownToDocument } from './to-document';

describe('markdown work bounds', () => {
  it('refuses more inline markup than the bound before inline parsing', () => {
    expect(() => parseTokens('*['.repeat(100_000))).toThrow(MarkdownTooComplexError);
    expect(() => markdownToDocument('[a](b)'.repeat(50_000))).toThrow(`more than ${MARKDOWN_LIMITS.inlineMarkup} inline markup`);
  });

  it('refuses more paragraphs, headings and table cells than the bound', () => {
    const table = '|a|b|\n|-|-|\n' + '|a|b|\n'.repeat(MARKDOWN_LIMITS.inlineBlocks / 2);
    expect(() => parseTokens(table)).toThrow(`more than ${MARKDOWN_LIMITS.inlineBlocks} paragraphs`);
  });

  it('does not count markup inside code, and takes a document at the bounds', () => {
    expect(() => parseTokens('```\n' + '*['.repeat(100_000) + '\n```\n')).not.toThrow();
    expect(() => parseTokens('[a](b) '.repeat(MARKDOWN_LIMITS.inlineMarkup / 2))).not.toThrow();
  });
});
