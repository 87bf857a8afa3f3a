/** Only web and mail addresses, and relative ones, become links: `javascript:`, `data:` and the like do not. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) return null;
  return trimmed;
}

/** An emoji as GitBook stores it (code points in hex, `1f469-200d-1f4bb`) as text; '' when it is not one. */
export function emojiText(code: string): string {
  const points = code.split('-').map((hex) => parseInt(hex, 16));
  return points.length && points.every((n) => Number.isFinite(n) && n >= 0 && n <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}
