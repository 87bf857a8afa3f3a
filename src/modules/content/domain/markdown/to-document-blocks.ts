import type MarkdownIt from 'markdown-it';
import { TokenTree } from './parser';
import { InlineNode, paragraph, plainText, textNode } from './to-document-inline';
import { DocumentBlock } from './types';

// Block shapes markdownToDocument builds from markdown-it's tokens: code blocks, task list items, containers' runs.

type Token = MarkdownIt.Token;

const TASK_MARKER = /^\[([ xX])\](?=\s|$)/;

/** Runs of children the container may hold stay inside it; the others move out beside it. */
export function contain(children: DocumentBlock[], allowed: (type: string) => boolean, make: (nodes: DocumentBlock[]) => DocumentBlock): DocumentBlock[] {
  if (children.length === 0) return [make([paragraph([])])];
  const out: DocumentBlock[] = [];
  let run: DocumentBlock[] = [];
  for (const child of children) {
    if (allowed(child.type)) run.push(child);
    else {
      if (run.length) out.push(make(run));
      run = [];
      out.push(child);
    }
  }
  if (run.length) out.push(make(run));
  return out;
}

export function codeBlock(token: Token): DocumentBlock {
  const syntax = token.type === 'fence' ? token.info.trim().split(/\s+/)[0] : '';
  const content = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
  return {
    object: 'block',
    type: 'code',
    key: '',
    data: syntax ? { syntax } : {},
    nodes: content.split('\n').map((line) => ({
      object: 'block',
      type: 'code-line',
      key: '',
      data: {},
      nodes: [textNode([{ object: 'leaf', text: line, marks: [] }])],
    })),
  };
}

export function orderIndex(i: number): string {
  return `a${i.toString(36).padStart(4, '0')}`;
}

export function taskMarker(item: TokenTree): string | null {
  const first = item.children[0];
  if (first?.token.type !== 'paragraph_open') return null;
  const inline = first.children[0]?.token;
  const text = inline?.children?.[0];
  if (!inline || text?.type !== 'text') return null;
  const raw = TASK_MARKER.exec(inline.content);
  if (!raw || !text.content.startsWith(raw[0])) return null;
  return raw[1];
}

/** Removes `[ ]` / `[x]` and the space after it from the item's first paragraph; answers `checked`. */
export function stripTaskMarker(item: TokenTree): boolean {
  const marker = taskMarker(item);
  const inline = item.children[0].children[0].token;
  const tokens = inline.children!;
  tokens[0].content = tokens[0].content.replace(/^\[[ xX]\]\s*/, '');
  while (tokens.length && (tokens[0].type === 'softbreak' || (tokens[0].type === 'text' && tokens[0].content.trim() === ''))) tokens.shift();
  if (tokens[0]?.type === 'text') tokens[0].content = tokens[0].content.replace(/^\s+/, '');
  return marker !== ' ';
}

export function isEmptyParagraph(block: DocumentBlock): boolean {
  return block.type === 'paragraph' && plainText(block.nodes as InlineNode[]) === '' && !(block.nodes ?? []).some((n) => n.object === 'inline');
}
