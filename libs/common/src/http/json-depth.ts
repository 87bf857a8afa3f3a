import { BadRequestException } from '@nestjs/common';

/** Deepest nesting of objects and arrays any request body may have. */
export const MAX_JSON_DEPTH = 128;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * How deeply objects and arrays nest in a JSON text, read in one pass without parsing
 * (brackets inside strings do not count). Malformed text gives some number; JSON.parse rejects it anyway.
 */
export function jsonNestingDepth(text: Uint8Array): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) max = depth;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return max;
}

/**
 * A `verify` hook for express.json(): refuses (400) a body nested deeper than `maxDepth` before
 * it is parsed. Without it, a 1 MB body of `[[[[...` parses fine, then overflows the stack of the
 * recursive DTO transformation of the validation pipe: a 500 on any endpoint with a body.
 */
export function rejectDeeplyNestedJson(maxDepth = MAX_JSON_DEPTH) {
  return (_req: unknown, _res: unknown, body: Buffer): void => {
    if (jsonNestingDepth(body) > maxDepth) {
      throw new BadRequestException(`Request body nests objects and arrays deeper than ${maxDepth} levels`);
    }
  };
}
