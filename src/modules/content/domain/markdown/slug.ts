/**
 * Heading anchors: lower case ASCII letters, digits and `-._+` (the contract's pattern for a
 * heading's `data.id`), accents folded, everything else collapsed to `-`.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._+-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Unique anchors within one document: `intro`, `intro-1`, `intro-2`...; `section` when nothing is left. */
export class HeadingIds {
  private readonly used = new Set<string>();

  next(title: string): string {
    const base = slugify(title) || 'section';
    let id = base;
    for (let n = 1; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}
