import type { DocumentBlock } from '../../content/domain/markdown/types';

/** A page's integration blocks as HTML, and what the page's policy must allow for them. */
export interface PageBlocks {
  html: Map<DocumentBlock, string>;
  /** Hosts the page's webframes come from (its `frame-src`). */
  frameHosts: string[];
  /** A reader pressed one of the page's buttons: this rendering is theirs alone. */
  pressed: boolean;
}

/** The button a reader pressed (the GET form of a block): the block's index, its state and the action; null when none or malformed. */
export function pressedBlock(params: URLSearchParams): { index: number; state: Record<string, unknown>; action: Record<string, unknown> } | null {
  const index = params.get('ck');
  if (index === null || !/^\d{1,3}$/.test(index)) return null;
  const state = jsonObject(params.get('ck-state'));
  const action = jsonObject(params.get('ck-action'));
  if (!state || !action || typeof action.action !== 'string') return null;
  return { index: Number(index), state, action };
}

function jsonObject(text: string | null): Record<string, unknown> | null {
  if (!text || text.length > 16 * 1024) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
