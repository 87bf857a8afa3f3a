import { ContentRef, documentToMarkdown, markdownToDocument } from '../../../content/domain/markdown';
import { resolveRelative } from './repository-paths';
import { decodeTarget } from './summary';
import { parseTokens } from '../../../content/domain/markdown/parser';

/** A top-level block of a markdown body: its source text, with the blank lines that follow it. */
interface SourceBlock {
  text: string;
  /** What the block means, written the one way this server writes markdown. */
  normal: string;
}

/**
 * A page body as the repository should hold it after an edit: the blocks the edit did not
 * change keep their text exactly as the file had it (its table padding, HTML, escapes), the new
 * and changed ones are written anew. Blocks are matched by meaning (both sides normalized the
 * same way) along the longest common sequence, so only the edited blocks differ from the file.
 */
export function spliceUnchangedBlocks(original: string, written: string, path: string): string {
  const before = sourceBlocks(original, path);
  const after = sourceBlocks(written, path);
  if (before.length === 0 || after.length === 0) return written;
  // Longest common subsequence over the normalized blocks (pages have at most a few hundred).
  const n = before.length;
  const m = after.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = before[i].normal === after[j].normal ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && before[i].normal === after[j].normal) {
      // A kept block followed by another needs its blank line (the file's last block may not have one).
      out.push(j + 1 < m ? withBlankLine(before[i].text) : before[i].text);
      i++;
      j++;
    } else if (i < n && table[i + 1][j] >= table[i][j + 1]) i++;
    else out.push(withBlankLine(after[j++].text));
  }
  const text = out.join('');
  return text.endsWith('\n') ? text : `${text}\n`;
}

function withBlankLine(text: string): string {
  return /\n\s*\n$/.test(text) ? text : `${text.replace(/\n*$/, '')}\n\n`;
}

/** The body split at its top-level blocks (by markdown-it's source lines), each with its meaning. */
function sourceBlocks(body: string, path: string): SourceBlock[] {
  const lines = body.split('\n');
  const found = new Set<number>();
  for (const token of parseTokens(body)) if (token.level === 0 && token.map && token.nesting !== -1) found.add(token.map[0]);
  const starts = [...found].sort((a, b) => a - b);
  const blocks: SourceBlock[] = [];
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1] : lines.length;
    const text = lines.slice(start, end).join('\n') + (end < lines.length ? '\n' : '');
    blocks.push({ text, normal: normalize(text, path) });
  });
  // Text before the first block (blank lines) belongs to nothing: it is dropped, as the writer does.
  return blocks;
}

/**
 * A block's meaning: parsed and written back until it no longer changes, with every relative link
 * resolved against the file (`page.md#a` in page.md is `#a`), as the exported text writes them.
 */
function normalize(markdown: string, path: string): string {
  const resolver = (href: string): ContentRef | null => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return null;
    const [target, anchor] = href.split('#', 2);
    const relative = resolveRelative(path, decodeTarget(target));
    if (relative === null) return null;
    // A folder link (`guide/`) is its README, as the import reads it.
    const resolved = relative === '' || /\/$/.test(target) || !/\.[A-Za-z0-9]+$/.test(relative) ? `${relative.replace(/\/$/, '')}${relative ? '/' : ''}README.md` : relative;
    if (resolved === path && anchor !== undefined) return { kind: 'anchor', anchor };
    return { kind: 'url', url: `repo:${resolved}${anchor !== undefined ? `#${anchor}` : ''}` };
  };
  try {
    let text = documentToMarkdown(markdownToDocument(markdown, resolver)).trim();
    for (let round = 0; round < 3; round++) {
      const again = documentToMarkdown(markdownToDocument(text)).trim();
      if (again === text) break;
      text = again;
    }
    return text;
  } catch {
    return markdown.trim();
  }
}
