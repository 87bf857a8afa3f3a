import { safeUrl } from '@app/common';
import { FilesService } from '../../content/application/files.service';
import { PublishedSitesService, PublishedTarget } from '../../sites/application/published-sites.service';
import { siteCustomization, siteSpaceCustomization } from '../../sites/domain/customization';
import { emojiText } from '../domain/html';
import { PageIndex, ReaderPage, navigationHref } from '../domain/page-index';
import { ReaderFont, SectionTab, SidebarItem, Theme } from '../domain/site-page-html';

/** What surrounds a published page: the sidebar, section tabs, variants and the theme with its font. */
export class SiteChrome {
  constructor(
    private readonly published: PublishedSitesService,
    private readonly files: FilesService,
  ) {}

  sidebar(pages: ReaderPage[], index: PageIndex, activeId: string, href: (path: string) => string): SidebarItem[] {
    const build = (nodes: ReaderPage[]): SidebarItem[] =>
      nodes
        .filter((node) => !node.hidden)
        .map((node) => {
          return { title: node.title, href: navigationHref(node, index, href), active: node.id === activeId, emoji: node.emoji ? emojiText(node.emoji) : undefined, children: build(node.pages) };
        });
    return build(pages);
  }

  /** Sections and external links in site order; a link's address passes the safe-URL filter or the link is left out. */
  sectionTabs(target: PublishedTarget): SectionTab[] {
    const { rows } = target;
    if (!rows.sections.length) return [];
    const groups = new Map(rows.groups.map((g) => [g.id, g]));
    const settings = siteCustomization(target.site) as { externalLinks?: { target?: string } };
    const newTab = settings.externalLinks?.target === 'blank';
    const sections = rows.sections.map((section) => ({
      order: section,
      tab: { title: section.title, href: this.published.hrefOf(target, section.id, null), active: section.id === target.address.sectionId, group: section.groupId ? groups.get(section.groupId)?.title : undefined },
    }));
    const links = rows.externalLinks.flatMap((link) => {
      const href = safeUrl(link.url);
      return href ? [{ order: link, tab: { title: link.title, href, active: false, group: link.groupId ? groups.get(link.groupId)?.title : undefined, external: { newTab } } }] : [];
    });
    return [...sections, ...links].sort((a, b) => rootOrder(a.order, groups) - rootOrder(b.order, groups) || a.order.position - b.order.position).map((item) => item.tab);
  }

  variants(target: PublishedTarget) {
    return target.rows.siteSpaces
      .filter((s) => s.sectionId === target.address.sectionId)
      .map((siteSpace) => ({
        title: target.spaces.get(siteSpace.spaceId)?.space.toState().title ?? siteSpace.path,
        href: this.published.hrefOf(target, siteSpace.sectionId, siteSpace.id),
        active: siteSpace.id === target.address.siteSpaceId,
      }));
  }

  theme(target: PublishedTarget): Theme {
    const siteSpace = target.rows.siteSpaces.find((s) => s.id === target.address.siteSpaceId);
    const settings = siteSpaceCustomization(target.site, siteSpace?.customization) as {
      themes?: { default?: string; toggeable?: boolean };
      styling?: { primaryColor?: { light: string; dark: string }; font?: unknown };
    };
    return {
      default: settings.themes?.default === 'dark' ? 'dark' : 'light',
      toggeable: settings.themes?.toggeable !== false,
      primaryColor: settings.styling?.primaryColor,
      font: this.readerFont(settings.styling?.font),
    };
  }

  /** A custom font of the customization (GitBook's font definition), keeping only the faces this server serves. */
  private readerFont(font: unknown): ReaderFont | undefined {
    if (!font || typeof font !== 'object') return undefined;
    const { fontFamily, fontFaces } = font as { fontFamily?: unknown; fontFaces?: unknown };
    if (typeof fontFamily !== 'string' || !Array.isArray(fontFaces)) return undefined;
    const faces = fontFaces.flatMap((face: { weight?: unknown; sources?: Array<{ url?: unknown; format?: unknown }> }) => {
      const source = Array.isArray(face?.sources) ? face.sources.find((s) => typeof s?.url === 'string' && this.files.isDownloadUrl(s.url)) : undefined;
      if (!source || typeof face.weight !== 'number') return [];
      return [{ weight: face.weight, url: source.url as string, format: source.format === 'woff' ? ('woff' as const) : ('woff2' as const) }];
    });
    return faces.length ? { family: fontFamily, faces } : undefined;
  }
}

function rootOrder(section: { groupId: string | null; position: number }, groups: Map<string, { position: number; parentId: string | null }>): number {
  let position = section.position;
  let groupId = section.groupId;
  while (groupId) {
    const group = groups.get(groupId);
    if (!group) break;
    position = group.position;
    groupId = group.parentId;
  }
  return position;
}
