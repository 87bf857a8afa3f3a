export { safeUrl } from '@app/common';

/** An emoji as GitBook stores it (code points in hex, `1f469-200d-1f4bb`) as text; '' when it is not one. */
export function emojiText(code: string): string {
  const points = code.split('-').map((hex) => parseInt(hex, 16));
  return points.length && points.every((n) => Number.isFinite(n) && n >= 0 && n <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}
