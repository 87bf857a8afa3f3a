/** What goes into a PDF: pages in reading order, each with its GitBook document. */
export interface PdfPage {
  title: string;
  /** Nesting depth in the page tree, for the outline. */
  depth: number;
  document: { nodes: unknown[] };
}

export interface PdfContent {
  title: string;
  pages: PdfPage[];
}

interface Node {
  object?: string;
  type?: string;
  nodes?: Node[];
  leaves?: { text?: string }[];
  text?: string;
  data?: Record<string, unknown>;
  fragments?: Node[];
}

/** The plain text of a node and everything under it. */
export function plainText(node: unknown): string {
  const n = node as Node;
  if (!n || typeof n !== 'object') return '';
  if (n.object === 'text') return (n.leaves ?? []).map((leaf) => leaf.text ?? '').join('');
  return (n.nodes ?? []).map(plainText).join('');
}

export type PdfBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string; indent: number; bullet?: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'divider' };

/**
 * Flattens a GitBook document into the blocks the renderer lays out: headings, paragraphs
 * (with list bullets and indentation), code, quotes and hints, dividers. Other blocks are
 * reduced to their text, so nothing a page says is lost from the PDF.
 */
export function toBlocks(document: { nodes: unknown[] }, indent = 0): PdfBlock[] {
  const blocks: PdfBlock[] = [];
  for (const raw of document.nodes as Node[]) {
    const type = raw.type ?? '';
    if (type.startsWith('heading-')) {
      blocks.push({ kind: 'heading', level: Math.min(3, Number(type.slice(8)) || 3) as 1 | 2 | 3, text: plainText(raw) });
    } else if (type === 'paragraph') {
      blocks.push({ kind: 'paragraph', text: plainText(raw), indent });
    } else if (type === 'list-unordered' || type === 'list-ordered' || type === 'list-tasks') {
      (raw.nodes ?? []).forEach((item, i) => {
        const [first, ...rest] = toBlocks({ nodes: item.nodes ?? [] }, indent + 1);
        const bullet = type === 'list-ordered' ? `${i + 1}.` : type === 'list-tasks' ? (item.data?.checked ? '[x]' : '[ ]') : '•';
        if (first && first.kind === 'paragraph') blocks.push({ ...first, bullet });
        else if (first) blocks.push(first);
        blocks.push(...rest);
      });
    } else if (type === 'code') {
      blocks.push({ kind: 'code', text: (raw.nodes ?? []).map(plainText).join('\n') });
    } else if (type === 'blockquote' || type === 'hint') {
      blocks.push({ kind: 'quote', text: (raw.nodes ?? []).map(plainText).join('\n') });
    } else if (type === 'divider') {
      blocks.push({ kind: 'divider' });
    } else {
      const text = plainText(raw) || (raw.fragments ?? []).map(plainText).join(' ');
      if (text.trim()) blocks.push({ kind: 'paragraph', text, indent });
    }
  }
  return blocks;
}
