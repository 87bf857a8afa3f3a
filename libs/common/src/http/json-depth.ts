import { BadRequestException } from '@nestjs/common';

/** Deepest nesting of objects and arrays any request body may have. */
export const MAX_JSON_DEPTH = 128;
/**
 * Most object properties (counted over the whole body, at every depth) a request body may have.
 * Far above any real request (a 1 MB comment document has a few thousand), far below what makes
 * parsing and validation stall the process (90,000 keys took 5 s).
 */
export const MAX_JSON_KEYS = 10_000;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

export interface JsonShape {
  /** Deepest nesting of objects and arrays. */
  depth: number;
  /** Object properties at every depth (each `:` outside a string is one). */
  keys: number;
}

/**
 * How deeply objects and arrays nest in a JSON text and how many properties it has, read in one
 * pass without parsing (brackets and colons inside strings do not count). Malformed text gives
 * some numbers; JSON.parse rejects it anyway.
 */
export function jsonShape(text: Uint8Array): JsonShape {
  let depth = 0;
  let max = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === COLON) {
      keys++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) max = depth;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { depth: max, keys };
}

export function jsonNestingDepth(text: Uint8Array): number {
  return jsonShape(text).depth;
}

/**
 * A `verify` hook for express.json(): refuses (400) a body nested deeper than `maxDepth` or with
 * more than `maxKeys` properties, before it is parsed. Deep nesting overflows the stack of the
 * recursive DTO transformation (a 500); a huge number of keys keeps the event loop busy for
 * seconds in parsing and validation, delaying every other caller.
 */
export function rejectOversizedJson(maxDepth = MAX_JSON_DEPTH, maxKeys = MAX_JSON_KEYS) {
  return (_req: unknown, _res: unknown, body: Buffer): void => {
    const shape = jsonShape(body);
    if (shape.depth > maxDepth) {
      throw new BadRequestException(`Request body nests objects and arrays deeper than ${maxDepth} levels`);
    }
    if (shape.keys > maxKeys) {
      throw new BadRequestException(`Request body has ${shape.keys} properties; at most ${maxKeys} are accepted`);
    }
  };
}

