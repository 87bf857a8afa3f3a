/**
 * Reaction emojis. GitBook's contract calls an emoji the "Unicode codepoint or character of the
 * emoji": both `"👍"` and `"1f44d"` (code points in hex, `-` between the parts of a sequence) are
 * accepted and stored as the characters, so the two spellings are one reaction.
 */

export const EMOJI_MAX_LENGTH = 50;

const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;
/** Characters an emoji sequence is made of: pictographs, modifiers, ZWJ, variation selectors, keycaps, tags, flags. */
const EMOJI_PARTS = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u20E3|\uFE0E)+$/u;
/** At least one part that is an emoji on its own (digits, `#` and ZWJ alone are not). */
const EMOJI_CORE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const MAX_CODE_POINTS = 16;
/** Digits, `#` and `*` are emoji components only inside a keycap (`1️⃣`). */
const KEYCAP = /[0-9#*]\uFE0F?\u20E3/gu;
const BARE_KEY = /[0-9#*]/;

/** The emoji as characters, or null when the value is not one emoji. */
export function normalizeEmoji(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > EMOJI_MAX_LENGTH) return null;
  let text = value;
  if (CODE_POINTS.test(value)) {
    const points = value.split('-').map((part) => parseInt(part, 16));
    if (points.some((point) => point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff))) return null;
    text = String.fromCodePoint(...points);
  }
  if ([...text].length > MAX_CODE_POINTS) return null;
  const valid = EMOJI_PARTS.test(text) && EMOJI_CORE.test(text) && !BARE_KEY.test(text.replace(KEYCAP, ''));
  return valid ? text : null;
}

export function isEmoji(value: unknown): boolean {
  return normalizeEmoji(value) !== null;
}
