import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, newId } from '@app/common';
import { User } from '../../identity/domain/user';
import { assertCondition } from '../domain/condition';
import { assertExternalUrl } from '../domain/external-link';
import { assertTitle, optionalText } from '../domain/site';
import { SiteExternalLinkOrm } from '../infrastructure/site-external-link.orm';
import { SitesRepository, StructureRows } from '../infrastructure/sites.repository';
import { SiteStructureService } from './site-structure.service';
import { childrenOf, groupOf } from './structure-rows';

export interface ExternalLinkInput {
  title?: unknown;
  description?: unknown;
  icon?: unknown;
  url?: unknown;
  parent?: unknown;
  draft?: unknown;
  condition?: unknown;
}

/**
 * Links to other web addresses among a site's sections: at the root or in a section group, never
 * inside a section, and only on a site with sections. They share their parent's order with
 * sections and groups (sortSiteStructure moves them); drafts and links whose condition fails are
 * left out of what readers see.
 */
@Injectable()
export class SiteExternalLinksService {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly repository: SitesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async add(caller: User, organizationId: string, siteId: string, input: ExternalLinkInput): Promise<SiteExternalLinkOrm> {
    return this.structure.edit(caller, organizationId, siteId, async (site, rows, tx) => {
      if (!rows.sections.length) throw new InvalidError('External links need a site with sections: add a section first');
      const groupId = this.parent(rows, input.parent);
      const link = Object.assign(new SiteExternalLinkOrm(), {
        id: newId(),
        siteId: site.id,
        groupId,
        title: assertTitle(input.title),
        description: input.description === undefined ? null : optionalText(input.description, 'description', 256),
        icon: input.icon === undefined ? null : optionalText(input.icon, 'icon', 50),
        url: assertExternalUrl(input.url),
        draft: input.draft === undefined ? false : draftFlag(input.draft),
        condition: input.condition === undefined || input.condition === null ? null : assertCondition(input.condition),
        position: childrenOf(rows, groupId).length,
        createdAt: this.clock.now(),
      });
      await this.repository.save(link, tx);
      return link;
    });
  }

  /** `parent` moves the link (null: to the root), at the end of its new siblings. */
  async update(caller: User, organizationId: string, siteId: string, linkId: string, input: ExternalLinkInput): Promise<SiteExternalLinkOrm> {
    return this.structure.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const link = this.link(rows, linkId);
      if (input.title !== undefined) link.title = assertTitle(input.title);
      if (input.description !== undefined) link.description = optionalText(input.description, 'description', 256);
      if (input.icon !== undefined) link.icon = optionalText(input.icon, 'icon', 50);
      if (input.url !== undefined) link.url = assertExternalUrl(input.url);
      if (input.draft !== undefined) link.draft = draftFlag(input.draft);
      if (input.condition !== undefined) link.condition = input.condition === null ? null : assertCondition(input.condition);
      if (input.parent !== undefined) {
        const groupId = this.parent(rows, input.parent);
        if (groupId !== link.groupId) {
          link.position = childrenOf(rows, groupId).length;
          link.groupId = groupId;
        }
      }
      await this.repository.save(link, tx);
      return link;
    });
  }

  /** False when the site has no such link. */
  async delete(caller: User, organizationId: string, siteId: string, linkId: string): Promise<boolean> {
    return this.structure.edit(caller, organizationId, siteId, async (_site, rows, tx) => {
      const link = rows.externalLinks.find((l) => l.id === linkId);
      if (!link) return false;
      await this.repository.deleteExternalLink(link.id, tx);
      return true;
    });
  }

  /** A 404 when the site has no such link. */
  link(rows: StructureRows, id: string): SiteExternalLinkOrm {
    const link = rows.externalLinks.find((l) => l.id === id);
    if (!link) throw NotFoundError.of('Site external link', id);
    return link;
  }

  private parent(rows: StructureRows, value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new InvalidError('parent: a section group id, or null for the site root');
    if (rows.sections.some((s) => s.id === value)) throw new InvalidError('parent: external links go at the root or in a section group, not inside a section');
    return groupOf(rows, value, 'parent').id;
  }
}

function draftFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InvalidError('draft: a boolean');
  return value;
}
