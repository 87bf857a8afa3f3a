import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError } from '@app/common';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { SPACE_TITLE_MAX } from '../../spaces/domain/space-settings';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { SitesRepository } from '../infrastructure/sites.repository';
import { SiteAccess } from './site-access';
import { SiteStructureService } from './site-structure.service';
import { childrenOf, newSection, newSiteSpace, sectionOf, siteSpaceOf } from './structure-rows';

/**
 * The site structure's use cases that make a space as well: a site space duplicated with its
 * space, and an empty site filled from a template. The space and its place in the site commit in
 * one transaction (the spaces module's, the site locked inside it).
 */
@Injectable()
export class SiteSpaceCopiesService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly spaces: SpacesService,
    private readonly structure: SiteStructureService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A full copy of the site space's space, shown next to it: a new variant right after it in the
   * same section (or at the root), or, when it is its section's only variant, in a new section right
   * after that one. The copy and its place in the site commit together or not at all.
   */
  async duplicateSiteSpace(caller: User, organizationId: string, siteId: string, siteSpaceId: string, input: { draft?: unknown }): Promise<SiteSpaceOrm> {
    if (input.draft !== undefined && typeof input.draft !== 'boolean') throw new InvalidError('draft: a boolean');
    if (input.draft === true) throw new InvalidError('draft: sections and site spaces have no drafts here; everything in a site is live');
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'create');
    const original = siteSpaceOf(await this.repository.structure(site.id), siteSpaceId);
    let duplicate: SiteSpaceOrm | undefined;
    await this.spaces.duplicate(caller, original.spaceId, async (copy, tx) => {
      duplicate = await this.structure.inLockedSite(organizationId, siteId, tx, async (locked, rows) => {
        // Read again under the lock: the site space may have moved or gone since.
        const current = siteSpaceOf(rows, siteSpaceId);
        const now = this.clock.now();
        const variants = rows.siteSpaces.filter((s) => s.sectionId === current.sectionId);
        const { title } = copy.toState();
        if (current.sectionId !== null && variants.length === 1) {
          const section = sectionOf(rows, current.sectionId);
          const added = newSection(locked.id, title, rows.sections.map((s) => s.path), childrenOf(rows, section.groupId).length, now, false);
          added.groupId = section.groupId;
          await this.repository.save(added, tx);
          rows.sections.push(added);
          await this.structure.place(rows, { type: 'site-section', id: added.id }, { after: { type: 'site-section', id: section.id } }, tx);
          const siteSpace = newSiteSpace(locked.id, added.id, copy.id, title, [], 0, now, true);
          await this.repository.save(siteSpace, tx);
          return siteSpace;
        }
        const siteSpace = newSiteSpace(locked.id, current.sectionId, copy.id, title, variants.map((s) => s.path), variants.length, now, false);
        await this.repository.save(siteSpace, tx);
        rows.siteSpaces.push(siteSpace);
        await this.structure.place(rows, { type: 'site-space', id: siteSpace.id }, { after: { type: 'site-space', id: current.id } }, tx);
        return siteSpace;
      });
    });
    return duplicate!;
  }

  /**
   * Fills a site that shows nothing yet with a space made from the built-in `getting-started`
   * template, titled like the site, as its first site space. A site that already shows a space is
   * a 409; the space and its place in the site commit together.
   */
  async applyTemplate(caller: User, organizationId: string, siteId: string): Promise<void> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'create');
    const notEmpty = () => new ConflictError('The template fills only a site that shows no space yet');
    if ((await this.repository.structure(site.id)).siteSpaces.length) throw notEmpty();
    await this.spaces.create(caller, organizationId, { title: siteTitleForSpace(site.title), template: { id: 'getting-started' } }, async (space, tx) => {
      await this.structure.inLockedSite(organizationId, siteId, tx, async (locked, rows) => {
        if (rows.siteSpaces.length) throw notEmpty();
        const { title } = space.toState();
        await this.repository.save(newSiteSpace(locked.id, null, space.id, title, [], 0, this.clock.now(), true), tx);
      });
    });
  }
}

/** A space title from a site's (sites allow longer titles than spaces). */
function siteTitleForSpace(title: string): string {
  return title.trim().slice(0, SPACE_TITLE_MAX).trimEnd() || 'Documentation';
}
