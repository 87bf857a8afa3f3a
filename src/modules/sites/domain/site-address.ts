import { VisitorContext, visible } from './condition';

type Condition = Parameters<typeof visible>[0];

/** What addressing reads of a site's structure rows (the sites repository's rows have these fields and more). */
export interface AddressRows {
  sections: Array<{ id: string; path: string; isDefault: boolean; condition: Condition }>;
  groups: unknown[];
  siteSpaces: Array<{ id: string; spaceId: string; sectionId: string | null; path: string; isDefault: boolean; condition: Condition }>;
  externalLinks: Array<{ draft: boolean; condition: Condition }>;
}

/** The parts of a structure a reader's address selects, once conditions are applied. */
export interface ResolvedAddress {
  sectionId: string | null;
  siteSpaceId: string;
  spaceId: string;
  /** Segments consumed by the section and the variant (empty for defaults). */
  segments: string[];
  /** What is left: the page's path inside the space. */
  pagePath: string;
}

/**
 * What a visitor may see: sections and site spaces whose conditions hold (a section showing at
 * least one visible site space), and external links that are live and whose conditions hold.
 */
export function visibleStructure<R extends AddressRows>(rows: R, context: VisitorContext, liveSpaces: Set<string>): R {
  const siteSpaces = rows.siteSpaces.filter((s) => liveSpaces.has(s.spaceId) && visible(s.condition, context));
  const sections = rows.sections.filter((section) => visible(section.condition, context) && siteSpaces.some((s) => s.sectionId === section.id));
  const kept = new Set(sections.map((s) => s.id));
  const externalLinks = rows.externalLinks.filter((link) => !link.draft && visible(link.condition, context));
  return { ...rows, sections, siteSpaces: siteSpaces.filter((s) => s.sectionId === null || kept.has(s.sectionId)), externalLinks };
}

/**
 * Reads `[section][/variant]/page/path` against a visible structure: a first segment naming a
 * section selects it (else the default section), the next naming one of its site spaces selects
 * that variant (else the default one). Null when nothing is visible.
 */
export function resolveAddress(rows: AddressRows, segments: string[]): ResolvedAddress | null {
  const rest = [...segments];
  const consumed: string[] = [];
  let sectionId: string | null = null;
  if (rows.sections.length) {
    const named = rows.sections.find((s) => !s.isDefault && s.path === rest[0]);
    const section = named ?? rows.sections.find((s) => s.isDefault) ?? rows.sections[0];
    if (named) consumed.push(rest.shift()!);
    sectionId = section.id;
  }
  const variants = rows.siteSpaces.filter((s) => s.sectionId === sectionId);
  if (!variants.length) return null;
  const named = variants.find((s) => !s.isDefault && s.path === rest[0]);
  const siteSpace = named ?? variants.find((s) => s.isDefault) ?? variants[0];
  if (named) consumed.push(rest.shift()!);
  return { sectionId, siteSpaceId: siteSpace.id, spaceId: siteSpace.spaceId, segments: consumed, pagePath: rest.join('/') };
}

/** The address segments of a section or variant: none for the defaults. */
export function segmentsOf(rows: AddressRows, sectionId: string | null, siteSpaceId: string | null): string[] {
  const out: string[] = [];
  const section = rows.sections.find((s) => s.id === sectionId);
  const defaultSection = rows.sections.find((s) => s.isDefault) ?? rows.sections[0];
  if (section && section.id !== defaultSection?.id) out.push(section.path);
  const container = section?.id ?? null;
  const variants = rows.siteSpaces.filter((s) => s.sectionId === container);
  const siteSpace = variants.find((s) => s.id === siteSpaceId);
  const defaultVariant = variants.find((s) => s.isDefault) ?? variants[0];
  if (siteSpace && siteSpace.id !== defaultVariant?.id) out.push(siteSpace.path);
  return out;
}
