import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { assertCondition } from '../domain/condition';
import { Customization, applyCustomization, siteSpaceCustomization } from '../domain/customization';
import { SiteSearchScope, spacesInScope } from '../domain/search-scope';
import { assertPath, assertTitle, optionalText } from '../domain/site';
import { ItemPointer, MovePosition, reorder } from '../domain/structure';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteExternalLinkOrm } from '../infrastructure/site-external-link.orm';
import { SiteSectionGroupOrm } from '../infrastructure/site-section-group.orm';
import { SiteSectionOrm } from '../infrastructure/site-section.orm';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { SitesRepository, StructureRows } from '../infrastructure/sites.repository';
import { SiteAccess } from './site-access';
import { Slot, childrenOf, groupOf, kindOf, newSection, newSiteSpace, parentOf, sectionOf, sectionTitle, siteSpaceOf } from './structure-rows';
import { PublishedSitesService } from './published-sites.service';

export interface SectionInput {
  title?: unknown;
  path?: unknown;
  defaultSiteSpace?: unknown;
  condition?: unknown;
  icon?: unknown;
  description?: unknown;
}

/**
 * A site's navigation: sections (tabs), section groups (headings over sections), site spaces (a
 * space shown in a section, or at the root of a site without sections; several in one section are
 * variants, e.g. versions or languages), and external links among the sections. Every write locks the site row first, so edits of one
 * site's structure run one at a time and positions and defaults stay consistent.
 */
@Injectable()
export class SiteStructureService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly spaces: SpacesService,
    private readonly transactions: Transactions,
    private readonly published: PublishedSitesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async rows(caller: User, organizationId: string, siteId: string): Promise<{ site: SiteOrm; rows: StructureRows }> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return { site, rows: await this.repository.structure(site.id) };
  }

  async listSections(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteSectionOrm>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return this.repository.listSections(site.id, request);
  }

  async listGroups(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteSectionGroupOrm>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return this.repository.listGroups(site.id, request);
  }

  async listSiteSpaces(caller: User, organizationId: string, siteId: string, isDefault: boolean | undefined, request: PageRequest): Promise<{ site: SiteOrm; page: Page<SiteSpaceOrm> }> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return { site, page: await this.repository.listSiteSpaces(site.id, isDefault, request) };
  }

  /** Answers 404 unless the caller can see the site. */
  async assertVisible(caller: User, organizationId: string, siteId: string): Promise<void> {
    await this.siteAccess.read(caller, organizationId, siteId);
  }

  /** The spaces a site search covers (see search-scope.ts), for a caller who can see the site. */
  async spacesInSearchScope(caller: User, organizationId: string, siteId: string, scope: SiteSearchScope): Promise<string[]> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const { siteSpaces } = await this.repository.structure(site.id);
    // Languages matter only when a current site space picks the variants of the other sections.
    const needsLanguages = scope.mode === 'default' && scope.currentSiteSpace !== undefined;
    const views = needsLanguages ? await this.spaces.viewsInOrganization(caller, organizationId, siteSpaces.map((s) => s.spaceId)) : new Map();
    return spacesInScope(siteSpaces, scope, (spaceId) => views.get(spaceId)?.space.toState().language ?? null);
  }

  /**
   * For a published site's reader (a site token): the spaces of its site in `scope` that the reader
   * sees (published, conditions read against the token's claims, live), as they are now.
   */
  async readerSpacesInScope(caller: User, organizationId: string, siteId: string, scope: SiteSearchScope): Promise<Array<{ id: string; title: string; revisionId: string; language: string | null }>> {
    const { rows, spaces } = await this.published.forCaller(caller, organizationId, siteId);
    const ids = spacesInScope(rows.siteSpaces, scope, (spaceId) => spaces.get(spaceId)?.space.toState().language ?? null);
    return ids.flatMap((id) => {
      const state = spaces.get(id)?.space.toState();
      return state ? [{ id: state.id, title: state.title, revisionId: state.revisionId, language: state.language ?? null }] : [];
    });
  }

  // Sections ----------------------------------------------------------------------------------

  /**
   * A new section showing `spaceId`. The first section of a site that already shows site spaces
   * at its root takes those along into a default section first, so nothing readers had disappears.
   */
  async addSection(caller: User, organizationId: string, siteId: string, input: { spaceId: unknown; title?: unknown; icon?: unknown }): Promise<SiteSectionOrm> {
    const space = await this.readableSpace(caller, organizationId, input.spaceId, 'spaceId');
    return this.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      const icon = input.icon === undefined ? null : optionalText(input.icon, 'icon', 50);
      const now = this.clock.now();
      const rootItems = childrenOf(rows, null);
      if (!rows.sections.length && rows.siteSpaces.length) {
        const first = newSection(site.id, site.title, [], rootItems.length, now, true);
        await this.repository.save(first, tx);
        rows.sections.push(first);
        for (const siteSpace of rows.siteSpaces) siteSpace.sectionId = first.id;
        await this.repository.saveAll(rows.siteSpaces, tx);
      }
      const title = input.title === undefined || input.title === null ? sectionTitle(space.title) : assertTitle(input.title);
      const section = newSection(site.id, title, rows.sections.map((s) => s.path), childrenOf(rows, null).length, now, rows.sections.length === 0);
      section.icon = icon;
      await this.repository.save(section, tx);
      await this.repository.save(newSiteSpace(site.id, section.id, space.id, space.title, [], 0, now, true), tx);
      return section;
    });
  }

  async updateSection(caller: User, organizationId: string, siteId: string, sectionId: string, input: SectionInput): Promise<SiteSectionOrm> {
    return this.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      const section = sectionOf(rows, sectionId);
      if (input.title !== undefined) section.title = assertTitle(input.title);
      if (input.path !== undefined) {
        const path = assertPath(input.path);
        if (rows.sections.some((s) => s.id !== section.id && s.path === path)) throw new ConflictError(`path: another section of this site uses "${path}"`);
        section.path = path;
      }
      if (input.condition !== undefined) section.condition = input.condition === null ? null : assertCondition(input.condition);
      if (input.icon !== undefined) section.icon = optionalText(input.icon, 'icon', 50);
      if (input.description !== undefined) section.description = optionalText(input.description, 'description', 256);
      await this.repository.save(section, tx);
      if (input.defaultSiteSpace !== undefined) await this.setDefaultSiteSpace(site, input.defaultSiteSpace, section.id, tx, rows);
      return section;
    });
  }

  /** Removes the section and its site spaces; another section becomes the default if it was. */
  async deleteSection(caller: User, organizationId: string, siteId: string, sectionId: string): Promise<void> {
    await this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const section = sectionOf(rows, sectionId);
      await this.repository.deleteSection(section.id, tx);
      const rest = rows.sections.filter((s) => s.id !== section.id);
      if (section.isDefault && rest.length) {
        rest[0].isDefault = true;
        await this.repository.save(rest[0], tx);
      }
    });
  }

  async moveSection(caller: User, organizationId: string, siteId: string, sectionId: string, position: MovePosition | undefined): Promise<SiteSectionOrm> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const section = sectionOf(rows, sectionId);
      await this.place(rows, { type: 'site-section', id: section.id }, position, tx);
      return section;
    });
  }

  // Section groups ----------------------------------------------------------------------------

  async addGroup(caller: User, organizationId: string, siteId: string, input: { title: unknown; icon?: unknown; sections?: unknown; parent?: unknown }): Promise<SiteSectionGroupOrm> {
    return this.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      const title = assertTitle(input.title, 'title', 1, 100);
      const icon = input.icon === undefined ? null : optionalText(input.icon, 'icon', 50);
      const parentId = input.parent === undefined || input.parent === null ? null : groupOf(rows, String(input.parent), 'parent').id;
      const sectionIds = input.sections === undefined ? [] : stringList(input.sections, 'sections');
      const members = sectionIds.map((id) => sectionOf(rows, id, 'sections'));
      const group = Object.assign(new SiteSectionGroupOrm(), { id: newId(), siteId: site.id, parentId, title, icon, position: childrenOf(rows, parentId).length, createdAt: this.clock.now() });
      await this.repository.save(group, tx);
      rows.groups.push(group);
      for (const section of members) await this.putInGroup(rows, section, group.id, tx);
      return group;
    });
  }

  async updateGroup(caller: User, organizationId: string, siteId: string, groupId: string, input: { title?: unknown; icon?: unknown }): Promise<SiteSectionGroupOrm> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const group = groupOf(rows, groupId);
      if (input.title !== undefined) group.title = assertTitle(input.title, 'title', 1, 100);
      if (input.icon !== undefined) group.icon = optionalText(input.icon, 'icon', 50);
      await this.repository.save(group, tx);
      return group;
    });
  }

  /** Its sections and sub-groups move up to where the group was. False when there was no such group. */
  async deleteGroup(caller: User, organizationId: string, siteId: string, groupId: string): Promise<boolean> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const group = rows.groups.find((g) => g.id === groupId);
      if (!group) return false;
      for (const slot of childrenOf(rows, group.id)) {
        if (slot.entity instanceof SiteSectionGroupOrm) slot.entity.parentId = group.parentId;
        else (slot.entity as SiteSectionOrm | SiteExternalLinkOrm).groupId = group.parentId;
        slot.entity.position = childrenOf(rows, group.parentId).length;
        await this.repository.save(slot.entity, tx);
      }
      await this.repository.deleteGroup(group.id, tx);
      return true;
    });
  }

  async addSectionToGroup(caller: User, organizationId: string, siteId: string, groupId: string, sectionId: unknown): Promise<SiteSectionGroupOrm> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const group = groupOf(rows, groupId);
      if (typeof sectionId !== 'string') throw new InvalidError('sectionId: required');
      await this.putInGroup(rows, sectionOf(rows, sectionId, 'sectionId'), group.id, tx);
      return group;
    });
  }

  /** The section goes back to the group's parent. False when it was not in the group. */
  async removeSectionFromGroup(caller: User, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<boolean> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const group = groupOf(rows, groupId);
      const section = rows.sections.find((s) => s.id === sectionId && s.groupId === group.id);
      if (!section) return false;
      await this.putInGroup(rows, section, group.parentId, tx);
      return true;
    });
  }

  async moveGroup(caller: User, organizationId: string, siteId: string, groupId: string, position: MovePosition | undefined): Promise<SiteSectionGroupOrm> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const group = groupOf(rows, groupId);
      await this.place(rows, { type: 'site-section-group', id: group.id }, position, tx);
      return group;
    });
  }

  // Site spaces -------------------------------------------------------------------------------

  /** Into `sectionId`, else the default section, else the site's root (a site without sections). */
  async addSiteSpace(caller: User, organizationId: string, siteId: string, input: { spaceId: unknown; sectionId?: unknown }): Promise<SiteSpaceOrm> {
    const space = await this.readableSpace(caller, organizationId, input.spaceId, 'spaceId');
    return this.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      let sectionId: string | null;
      if (input.sectionId !== undefined && input.sectionId !== null) sectionId = sectionOf(rows, String(input.sectionId), 'sectionId').id;
      else sectionId = rows.sections.find((s) => s.isDefault)?.id ?? rows.sections[0]?.id ?? null;
      const siblings = rows.siteSpaces.filter((s) => s.sectionId === sectionId);
      const siteSpace = newSiteSpace(site.id, sectionId, space.id, space.title, siblings.map((s) => s.path), siblings.length, this.clock.now(), siblings.length === 0);
      await this.repository.save(siteSpace, tx);
      return siteSpace;
    });
  }

  async updateSiteSpace(caller: User, organizationId: string, siteId: string, siteSpaceId: string, input: { path?: unknown; condition?: unknown; spaceId?: unknown }): Promise<SiteSpaceOrm> {
    const space = input.spaceId === undefined ? null : await this.readableSpace(caller, organizationId, input.spaceId, 'spaceId');
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const siteSpace = siteSpaceOf(rows, siteSpaceId);
      if (input.path !== undefined) {
        const path = assertPath(input.path);
        if (rows.siteSpaces.some((s) => s.id !== siteSpace.id && s.sectionId === siteSpace.sectionId && s.path === path)) {
          throw new ConflictError(`path: another site space ${siteSpace.sectionId ? 'of this section' : 'of this site'} uses "${path}"`);
        }
        siteSpace.path = path;
      }
      if (input.condition !== undefined) siteSpace.condition = input.condition === null ? null : assertCondition(input.condition);
      if (space) siteSpace.spaceId = space.id;
      await this.repository.save(siteSpace, tx);
      return siteSpace;
    });
  }

  async deleteSiteSpace(caller: User, organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
    await this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const siteSpace = siteSpaceOf(rows, siteSpaceId);
      await this.repository.deleteSiteSpace(siteSpace.id, tx);
      const next = rows.siteSpaces.find((s) => s.id !== siteSpace.id && s.sectionId === siteSpace.sectionId);
      if (siteSpace.isDefault && next) {
        next.isDefault = true;
        await this.repository.save(next, tx);
      }
    });
  }

  async moveSiteSpace(caller: User, organizationId: string, siteId: string, siteSpaceId: string, position: MovePosition | undefined): Promise<SiteSpaceOrm> {
    return this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const siteSpace = siteSpaceOf(rows, siteSpaceId);
      await this.place(rows, { type: 'site-space', id: siteSpace.id }, position, tx);
      return siteSpace;
    });
  }

  /** The variant's settings: the site's with its overrides. */
  async siteSpaceCustomization(caller: User, organizationId: string, siteId: string, siteSpaceId: string): Promise<Customization> {
    const { site, rows } = await this.rows(caller, organizationId, siteId);
    return siteSpaceCustomization(site, siteSpaceOf(rows, siteSpaceId).customization);
  }

  /** Lays `input` over the variant's overrides (null drops them: it looks like the site again); answers its settings. */
  async overrideSiteSpaceCustomization(caller: User, organizationId: string, siteId: string, siteSpaceId: string, input: unknown | null): Promise<Customization> {
    return this.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      const siteSpace = siteSpaceOf(rows, siteSpaceId);
      siteSpace.customization = input === null ? null : applyCustomization(siteSpace.customization ?? {}, input);
      await this.repository.save(siteSpace, tx);
      return siteSpaceCustomization(site, siteSpace.customization);
    });
  }

  /** sortSiteStructure: any item, before or after a sibling of the same level (the end without a position). */
  async sort(caller: User, organizationId: string, siteId: string, item: ItemPointer, position: MovePosition | undefined): Promise<void> {
    await this.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      await this.place(rows, item, position, tx);
    });
  }

  // Defaults (also used by the site's PATCH) ----------------------------------------------------

  async setDefaultSiteSpace(site: SiteOrm, value: unknown, sectionId: string | null, tx: Tx, loaded?: StructureRows): Promise<void> {
    const rows = loaded ?? (await this.repository.structure(site.id, tx));
    if (typeof value !== 'string') throw new InvalidError('defaultSiteSpace: a site space id');
    const chosen = rows.siteSpaces.find((s) => s.id === value);
    const container = sectionId ?? rows.sections.find((s) => s.isDefault)?.id ?? null;
    if (!chosen || chosen.sectionId !== container) throw new InvalidError(`defaultSiteSpace: "${value}" is not a site space ${container ? 'of the section' : 'at the root of the site'}`);
    for (const siteSpace of rows.siteSpaces.filter((s) => s.sectionId === container && s.isDefault !== (s.id === chosen.id))) {
      siteSpace.isDefault = siteSpace.id === chosen.id;
      await this.repository.save(siteSpace, tx);
    }
  }

  async setDefaultSection(site: SiteOrm, value: unknown, tx: Tx): Promise<void> {
    const rows = await this.repository.structure(site.id, tx);
    if (typeof value !== 'string') throw new InvalidError('defaultSiteSection: a section id');
    if (!rows.sections.some((s) => s.id === value)) throw new InvalidError(`defaultSiteSection: "${value}" is not a section of the site`);
    for (const section of rows.sections.filter((s) => s.isDefault !== (s.id === value))) {
      section.isDefault = section.id === value;
      await this.repository.save(section, tx);
    }
  }

  // ------------------------------------------------------------------------------------------

  /** Every structure write, here and in SiteExternalLinksService: `create` role, the site locked, its rows read under the lock. */
  async edit<T>(caller: User, organizationId: string, siteId: string, work: (site: SiteOrm, rows: StructureRows, tx: Tx) => Promise<T>): Promise<T> {
    await this.siteAccess.role(caller, organizationId, siteId, 'create');
    return this.transactions.run((tx) => this.inLockedSite(organizationId, siteId, tx, work));
  }

  /** Structure edits of one site run one at a time: the site row is locked, then its structure read. */
  async inLockedSite<T>(organizationId: string, siteId: string, tx: Tx, work: (site: SiteOrm, rows: StructureRows, tx: Tx) => Promise<T>): Promise<T> {
    const site = await this.siteAccess.lock(organizationId, siteId, tx);
    const result = await work(site, await this.repository.structure(site.id, tx), tx);
    await this.repository.update(site.id, { updatedAt: this.clock.now() }, tx);
    return result;
  }

  /** Called before the write transaction opens (it reads through the pool). */
  private async readableSpace(caller: User, organizationId: string, value: unknown, field: string) {
    if (typeof value !== 'string' || !value) throw new InvalidError(`${field}: a space id`);
    const view = (await this.spaces.viewsInOrganization(caller, organizationId, [value])).get(value);
    if (!view?.role) throw NotFoundError.of('Space', value);
    return view.space.toState();
  }

  /** Puts an item before or after a sibling (at the end without a position) and saves the positions that changed. */
  async place(rows: StructureRows, item: ItemPointer, position: MovePosition | undefined, tx: Tx): Promise<void> {
    let siblings: Slot[];
    if (item.type === 'site-space') {
      const siteSpace = siteSpaceOf(rows, item.id, 'item');
      siblings = rows.siteSpaces.filter((s) => s.sectionId === siteSpace.sectionId).map((entity) => ({ id: entity.id, position: entity.position, entity }));
    } else {
      siblings = childrenOf(rows, parentOf(rows, item));
    }
    const moving = siblings.find((slot) => slot.id === item.id)!;
    for (const pointer of [position?.before, position?.after]) {
      if (pointer && !siblings.some((slot) => slot.id === pointer.id && kindOf(slot.entity) === pointer.type)) {
        throw new InvalidError(`position: ${pointer.type} "${pointer.id}" is not a sibling of the item being moved`);
      }
    }
    const ordered = reorder(siblings, moving, position, new Set(siblings.map((slot) => slot.id)));
    for (const slot of ordered) {
      if (slot.entity.position !== slot.position) {
        slot.entity.position = slot.position;
        await this.repository.save(slot.entity, tx);
      }
    }
  }

  private async putInGroup(rows: StructureRows, section: SiteSectionOrm, groupId: string | null, tx: Tx): Promise<void> {
    if (section.groupId === groupId) return;
    section.groupId = groupId;
    section.position = Math.max(-1, ...childrenOf(rows, groupId).filter((slot) => slot.id !== section.id).map((slot) => slot.position)) + 1;
    await this.repository.save(section, tx);
  }

}

function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length > 100 || value.some((v) => typeof v !== 'string')) throw new InvalidError(`${field}: an array of ids`);
  return value as string[];
}
