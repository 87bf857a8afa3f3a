import type MarkdownIt from 'markdown-it';
import { resolveHref } from './refs';
import { ContentRef, DocumentBlock, DocumentInline, DocumentLeaf, DocumentMark, DocumentText, LinkResolver } from './types';

// Inline content markdownToDocument builds from markdown-it's inline tokens: texts with their marks, links, images, math.

type Token = MarkdownIt.Token;
export type InlineNode = DocumentText | DocumentInline;

/** Canonical order of marks on a leaf, so equal formatting gives equal leaves. */
export const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code'] as const;

export function emptyText(): DocumentText {
  return { object: 'text', key: '', leaves: [{ object: 'leaf', text: '', marks: [] }] };
}

export function paragraph(nodes: InlineNode[]): DocumentBlock {
  return { object: 'block', type: 'paragraph', key: '', nodes: nodes.length ? nodes : [emptyText()] };
}

/** Inline tokens to text and inline nodes: marks on leaves, links and images as inlines. */
export function markdownInlines(tokens: Token[], resolver: LinkResolver | undefined, hardbreak = '\n'): InlineNode[] {
  const out: InlineNode[] = [];
  let target = out;
  let leaves: DocumentLeaf[] = [];
  const marks: string[] = [];
  let link: DocumentInline | null = null;
  let nested = 0;

  const flush = () => {
    if (leaves.length) target.push(textNode(leaves));
    leaves = [];
  };
  const leaf = (text: string, extra?: string) => {
    if (text === '') return;
    leaves.push({ object: 'leaf', text, marks: markList(extra ? [...marks, extra] : marks) });
  };
  const toggle = (type: string, on: boolean) => {
    if (on) marks.push(type);
    else {
      const at = marks.lastIndexOf(type);
      if (at !== -1) marks.splice(at, 1);
    }
  };

  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        leaf(token.content);
        break;
      case 'softbreak':
        leaf(' ');
        break;
      case 'hardbreak':
        leaf(hardbreak);
        break;
      case 'code_inline':
        leaf(token.content, 'code');
        break;
      case 'strong_open':
      case 'strong_close':
        toggle('bold', token.nesting === 1);
        break;
      case 'em_open':
      case 'em_close':
        toggle('italic', token.nesting === 1);
        break;
      case 's_open':
      case 's_close':
        toggle('strikethrough', token.nesting === 1);
        break;
      case 'link_open':
        // markdown-it can nest a link in another's text; the contract cannot: its text joins the outer link.
        if (link) {
          nested++;
          break;
        }
        flush();
        link = {
          object: 'inline',
          type: 'link',
          key: '',
          data: { ref: resolveHref(token.attrGet('href') ?? '', resolver) },
          nodes: [],
        };
        out.push(link);
        target = link.nodes!;
        break;
      case 'link_close':
        if (nested > 0) {
          nested--;
          break;
        }
        flush();
        if (link && link.nodes!.length === 0) link.nodes!.push(emptyText());
        link = null;
        target = out;
        break;
      case 'image': {
        flush();
        const { ref, alt, caption } = imageData(token, resolver);
        const data: Record<string, unknown> = { ref };
        if (alt) data.alt = alt;
        if (caption) data.caption = caption;
        target.push({ object: 'inline', type: 'inline-image', key: '', data, isVoid: true });
        break;
      }
      case 'math_inline':
        flush();
        out.push({ object: 'inline', type: 'inline-math', key: '', data: { formula: token.content }, isVoid: true });
        break;
      default:
        if (token.content) leaf(token.content);
    }
  }
  flush();
  return out;
}

/** An image token's target (a URL or a file), alt text and title. */
export function imageData(token: Token, resolver: LinkResolver | undefined): { ref: ContentRef; alt: string; caption: string } {
  const src = token.attrGet('src') ?? '';
  let ref = resolveHref(src, resolver);
  if (ref.kind !== 'url' && ref.kind !== 'file') ref = { kind: 'url', url: src };
  return { ref, alt: tokensText(token.children ?? []), caption: token.attrGet('title') ?? '' };
}

export function textNode(leaves: DocumentLeaf[]): DocumentText {
  const merged: DocumentLeaf[] = [];
  for (const leaf of leaves) {
    const last = merged[merged.length - 1];
    if (last && sameMarks(last.marks, leaf.marks)) last.text += leaf.text;
    else merged.push({ ...leaf });
  }
  return { object: 'text', key: '', leaves: merged.length ? merged : [{ object: 'leaf', text: '', marks: [] }] };
}

function markList(types: string[]): DocumentMark[] {
  return MARK_ORDER.filter((type) => types.includes(type)).map((type) => ({ object: 'mark', type }));
}

function sameMarks(a: DocumentMark[], b: DocumentMark[]): boolean {
  return a.length === b.length && a.every((m, i) => m.type === b[i].type);
}

/** The text of inline nodes (links' texts included, images' omitted). */
export function plainText(nodes: Array<InlineNode | DocumentBlock>): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      return plainText((node.nodes ?? []) as InlineNode[]);
    })
    .join('');
}

function tokensText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'softbreak' || t.type === 'hardbreak') return ' ';
      if (t.type === 'image') return tokensText(t.children ?? []);
      return t.content;
    })
    .join('');
}
