import { markdownToDocument } from './to-document';
import { DocumentBlock, DocumentInline, DocumentText } from './types';

export interface PageSection {
  /** The heading's anchor (its `data.id` in the document); '' for the text before the first heading. */
  id: string;
  /** The heading's text; '' for the intro. */
  title: string;
  /** The section's plain text: one line per paragraph, list item, code line, table row... */
  body: string;
}

type Node = DocumentBlock | DocumentInline | DocumentText;

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3']);

function inlineText(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      if (node.object === 'inline' && node.type === 'inline-image') return [node.data?.alt, node.data?.caption].filter(Boolean).join(' ');
      return inlineText((node.nodes ?? []) as Node[]);
    })
    .join('');
}

/**
 * Splits a page body into sections at its headings (any level, wherever they sit), for search.
 * The intro (text before the first heading) is a section only when it has text.
 */
export function extractSections(body: string): PageSection[] {
  const sections: PageSection[] = [];
  let current = { id: '', title: '', lines: [] as string[] };
  const close = () => {
    const text = current.lines.map((l) => l.trim()).filter(Boolean).join('\n');
    if (current.id !== '' || text !== '') sections.push({ id: current.id, title: current.title, body: text });
  };

  const visit = (block: DocumentBlock) => {
    const children = (block.nodes ?? []) as Node[];
    if (HEADINGS.has(block.type)) {
      close();
      current = { id: String(block.data?.id ?? ''), title: inlineText(children).trim(), lines: [] };
      return;
    }
    switch (block.type) {
      case 'paragraph':
      case 'code-line':
        current.lines.push(inlineText(children));
        return;
      case 'image': {
        const caption = (block.fragments ?? []).flatMap((f) => f.nodes).map((n) => inlineText([n]));
        current.lines.push([block.data?.alt, ...caption].filter(Boolean).join(' '));
        return;
      }
      case 'table': {
        const data = block.data ?? {};
        const columns: string[] = data.view?.columns ?? [];
        const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
        current.lines.push(columns.map((c) => String(data.definition?.[c]?.title ?? '')).join(' | '));
        for (const record of Object.values((data.records ?? {}) as Record<string, any>).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1))) {
          const cells = columns.map((c) => {
            const fragment = fragments.get(record.values?.[c]);
            return fragment ? fragment.nodes.map((n) => inlineText((n.nodes ?? []) as Node[])).join(' ') : '';
          });
          current.lines.push(cells.join(' | '));
        }
        return;
      }
      default:
        for (const child of children) if (child.object === 'block') visit(child);
    }
  };

  for (const block of markdownToDocument(body).nodes) visit(block);
  close();
  return sections;
}
