import type MarkdownIt from 'markdown-it';

type StateBlock = MarkdownIt.StateBlock;
type Token = MarkdownIt.Token;

/** A code fence, possibly after blockquote and list markers: ``` or ~~~. */
const FENCE = /^(?:(?:>|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*)*(`{3,}|~{3,})/;
const FENCE_CLOSE = /^(?:(?:>|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*)*(`{3,}|~{3,})\s*$/;
/** List and blockquote markers before a line's content. */
const CONTAINER_MARKERS = /^(?:(?:>|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*)+/;

export function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

/**
 * The line that closes a container opened at `startLine` (hints, `<details>`), or -1. Containers
 * of the same kind nest; an opener may follow list or quote markers (`- {% hint %}`); lines in
 * fenced code (in nested quotes and lists too) are code; a non-empty line indented less than the
 * container ends the search (the end of a list item).
 */
export function closingLine(state: StateBlock, startLine: number, endLine: number, opens: (text: string) => boolean, closes: (text: string) => boolean): number {
  let depth = 1;
  let fence: string | null = null;
  for (let line = startLine + 1; line < endLine; line++) {
    const text = lineText(state, line);
    if (text.length > 0 && state.sCount[line] < state.blkIndent) return -1;
    const found = FENCE.exec(text);
    // A backtick fence's info string holds no backtick (else it is inline code).
    const fenceMark = found && !(found[1][0] === '`' && text.slice(found[0].length).includes('`')) ? found[1] : undefined;
    if (fence) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && FENCE_CLOSE.test(text)) fence = null;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    if (state.sCount[line] - state.blkIndent >= 4) continue;
    if (opens(text.replace(CONTAINER_MARKERS, ''))) depth++;
    else if (closes(text) && --depth === 0) return line;
  }
  return -1;
}

/**
 * Pushes `<type>_open`, what `before` adds (a title), the blocks of lines [from, closeLine) and
 * `<type>_close`, then moves the parser past the closing line.
 */
export function pushContainer(state: StateBlock, type: string, tag: string, startLine: number, from: number, closeLine: number, before?: (opening: Token) => void): void {
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = type as StateBlock['parentType'];
  state.lineMax = closeLine;
  const opening = state.push(`${type}_open`, tag, 1);
  opening.block = true;
  opening.map = [startLine, closeLine + 1];
  before?.(opening);
  state.md.block.tokenize(state, from, closeLine);
  const closing = state.push(`${type}_close`, tag, -1);
  closing.block = true;
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
  state.line = closeLine + 1;
}
