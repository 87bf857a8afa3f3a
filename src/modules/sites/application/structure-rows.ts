import { InvalidError, NotFoundError, newId } from '@app/common';
import { uniquePath } from '../domain/site';
import { ItemPointer, Orderable } from '../domain/structure';
import { SiteExternalLinkOrm } from '../infrastructure/site-external-link.orm';
import { SiteSectionGroupOrm } from '../infrastructure/site-section-group.orm';
import { SiteSectionOrm } from '../infrastructure/site-section.orm';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { StructureRows } from '../infrastructure/sites.repository';

// A site's structure rows as one edit reads them under the site's lock: lookups, order, new rows.

type Entity = SiteSectionOrm | SiteSectionGroupOrm | SiteSpaceOrm | SiteExternalLinkOrm;

/** One item among its siblings, whatever its kind (sections, groups and external links share an order). */
export interface Slot extends Orderable {
  entity: Entity;
}

/** The items directly under a group (null: the root), sections, groups and external links together, in order. */
export function childrenOf(rows: StructureRows, groupId: string | null): Slot[] {
  const slots: Slot[] = [
    ...rows.sections.filter((s) => s.groupId === groupId).map((entity) => ({ id: entity.id, position: entity.position, entity })),
    ...rows.groups.filter((g) => g.parentId === groupId).map((entity) => ({ id: entity.id, position: entity.position, entity })),
    ...rows.externalLinks.filter((l) => l.groupId === groupId).map((entity) => ({ id: entity.id, position: entity.position, entity })),
  ];
  return slots.sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
}

/** The group a section, group or external link sits in (null: the root); a 400 naming `item` when it is not in the site. */
export function parentOf(rows: StructureRows, item: ItemPointer): string | null {
  if (item.type === 'site-section') return sectionOf(rows, item.id, 'item').groupId;
  if (item.type === 'site-section-group') return groupOf(rows, item.id, 'item').parentId;
  const link = rows.externalLinks.find((l) => l.id === item.id);
  if (!link) throw new InvalidError(`item: "${item.id}" is not an external link of this site`);
  return link.groupId;
}

export function newSection(siteId: string, title: string, takenPaths: string[], position: number, now: Date, isDefault: boolean): SiteSectionOrm {
  return Object.assign(new SiteSectionOrm(), {
    id: newId(),
    siteId,
    groupId: null,
    title: sectionTitle(title),
    description: null,
    path: uniquePath(title, takenPaths),
    condition: null,
    icon: null,
    isDefault,
    position,
    createdAt: now,
  });
}

export function newSiteSpace(siteId: string, sectionId: string | null, spaceId: string, title: string, takenPaths: string[], position: number, now: Date, isDefault: boolean): SiteSpaceOrm {
  return Object.assign(new SiteSpaceOrm(), { id: newId(), siteId, sectionId, spaceId, path: uniquePath(title, takenPaths), condition: null, isDefault, position, customization: null, createdAt: now });
}

export function sectionOf(rows: StructureRows, id: string, field?: string): SiteSectionOrm {
  const section = rows.sections.find((s) => s.id === id);
  if (!section) throw field ? new InvalidError(`${field}: "${id}" is not a section of this site`) : NotFoundError.of('Site section', id);
  return section;
}

export function groupOf(rows: StructureRows, id: string, field?: string): SiteSectionGroupOrm {
  const group = rows.groups.find((g) => g.id === id);
  if (!group) throw field ? new InvalidError(`${field}: "${id}" is not a section group of this site`) : NotFoundError.of('Site section group', id);
  return group;
}

export function siteSpaceOf(rows: StructureRows, id: string, field?: string): SiteSpaceOrm {
  const siteSpace = rows.siteSpaces.find((s) => s.id === id);
  if (!siteSpace) throw field ? new InvalidError(`${field}: "${id}" is not a site space of this site`) : NotFoundError.of('Site space', id);
  return siteSpace;
}

export function kindOf(entity: Entity): ItemPointer['type'] {
  if (entity instanceof SiteSectionOrm) return 'site-section';
  if (entity instanceof SiteSectionGroupOrm) return 'site-section-group';
  return entity instanceof SiteExternalLinkOrm ? 'site-external-link' : 'site-space';
}

/** Section titles are 2 to 128 characters; a one-letter space title is padded rather than refused. */
export function sectionTitle(title: string): string {
  const trimmed = title.trim().slice(0, 128);
  return trimmed.length >= 2 ? trimmed : `${trimmed || 'Section'} `.padEnd(2, '-');
}
