import { documentToMarkdown, markdownToDocument } from '../../../content/domain/markdown';
import type { DocumentBlock } from '../../../content/domain/markdown';
import { diffHunks } from '../../domain/merge/diff';

/**
 * `revert_page` with `block`: reverts only some block-level changes of a page's document.
 *
 * Both bodies are read as GitBook documents and their top-level blocks compared (a longest
 * common subsequence of equal blocks); each run of differing blocks is one change: blocks added,
 * deleted, or replaced (modified or moved). Keys are those of the document as this server
 * presents it (`0`, `1`, ... for top-level blocks, `1.0` for a block inside block `1`; a key
 * inside a block selects that top-level block). A key selects:
 *
 * 1. the change containing that block of the current document (added or modified blocks are
 *    removed or reset), else
 * 2. the deletion containing that block of the target document (deleted blocks are restored).
 *
 * Returns the new body, or the problem with the first key that selects no change.
 */
export function revertBlocks(current: string, target: string, keys: string[]): { ok: true; body: string } | { ok: false; problem: string } {
  const ours = markdownToDocument(current);
  const theirs = markdownToDocument(target);
  const ids = new Map<string, number>();
  const id = (block: DocumentBlock) => {
    const signature = JSON.stringify(withoutKeys(block));
    let n = ids.get(signature);
    if (n === undefined) ids.set(signature, (n = ids.size));
    return n;
  };
  const base = theirs.nodes.map(id);
  const side = ours.nodes.map(id);
  const hunks = diffHunks(base, side);
  const selected = new Set<number>();

  for (const key of keys) {
    const index = topLevelIndex(key);
    if (index === null) return { ok: false, problem: `block "${key}" is not a block key` };
    let found = hunks.findIndex((h) => h.sideLength > 0 && index >= h.sideStart && index < h.sideStart + h.sideLength);
    if (found === -1) found = hunks.findIndex((h) => h.sideLength === 0 && index >= h.baseStart && index < h.baseStart + h.baseLength);
    if (found === -1) {
      const exists = index < ours.nodes.length || index < theirs.nodes.length;
      return { ok: false, problem: exists ? `block "${key}" has no change to revert` : `block "${key}" not found` };
    }
    selected.add(found);
  }

  const nodes: DocumentBlock[] = [];
  let at = 0; // position in the current document
  hunks.forEach((hunk, h) => {
    nodes.push(...ours.nodes.slice(at, hunk.sideStart));
    const kept = selected.has(h) ? theirs.nodes.slice(hunk.baseStart, hunk.baseStart + hunk.baseLength) : ours.nodes.slice(hunk.sideStart, hunk.sideStart + hunk.sideLength);
    nodes.push(...kept);
    at = hunk.sideStart + hunk.sideLength;
  });
  nodes.push(...ours.nodes.slice(at));
  return { ok: true, body: documentToMarkdown({ object: 'document', data: {}, nodes }) };
}

function topLevelIndex(key: string): number | null {
  const match = /^(\d+)(?:\.|$)/.exec(key);
  if (!match) return null;
  const index = Number(match[1]);
  return Number.isSafeInteger(index) ? index : null;
}

function withoutKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== 'key')
      .map(([key, v]) => [key, withoutKeys(v)]),
  );
}
