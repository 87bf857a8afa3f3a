import { Urls } from '@app/common';
import { Revision } from '../domain/revision';
import { PageNode, presentComputedSource } from '../domain/revision-content';
import { layoutOf } from '../domain/page-layout';
import { locatePages, pageMarkdown } from '../domain/page-location';
import { childrenPath, slugPath } from '../domain/page-paths';
import type { ContentScope, PageObject } from './content-objects';
import { FilesService } from './files.service';

/** GitBook's page objects of a revision's tree, for one reading scope (space, change request or revision). */
export class PageObjects {
  constructor(
    private readonly files: FilesService,
    private readonly urls: Urls,
  ) {}

  tree(nodes: PageNode[], parentPath: string, scope: ContentScope, documents: Map<string, string>, revision: Revision): PageObject[] {
    return nodes.map((node) => this.node(node, parentPath, scope, documents, revision));
  }

  node(node: PageNode, parentPath: string, scope: ContentScope, documents: Map<string, string>, revision: Revision): PageObject {
    const { page, nested } = this.own(node, parentPath, scope, documents, revision);
    if (nested) page.pages = this.tree(node.pages, childrenPath(parentPath, node), scope, documents, revision);
    return page as PageObject;
  }

  /**
   * A page's own fields as the tree presents them. `nested`: its `pages` (its children, the last
   * key) are the caller's to add; a link page has none, a computed page's are always empty.
   * Built by assignment rather than spreads: a 10,000-page tree is presented per read.
   */
  own(
    node: PageNode,
    parentPath: string,
    scope: ContentScope,
    documents: Map<string, string>,
    revision: Revision,
  ): { page: Record<string, unknown>; nested: boolean } {
    const page: Record<string, unknown> = { id: node.id, title: node.title };
    if (node.emoji) page.emoji = node.emoji;
    if (node.icon) page.icon = node.icon;
    page.createdAt = node.createdAt;
    page.updatedAt = node.updatedAt;
    const path = slugPath(parentPath, node.slug);
    let nested = false;
    switch (node.kind) {
      case 'group':
        page.kind = 'group';
        page.type = 'group';
        page.slug = node.slug;
        page.path = node.slug;
        if (node.hidden) page.hidden = true;
        nested = true;
        break;
      case 'link':
        page.kind = 'link';
        page.type = 'link';
        page.target = node.target ?? { kind: 'url', url: '' };
        Object.assign(page, this.linkHref(node, scope, revision));
        if (node.hidden) page.hidden = true;
        break;
      case 'computed':
        page.type = 'computed';
        page.computed = presentComputedSource(node.computed);
        page.slug = node.slug;
        page.path = path;
        if (node.hidden) page.hidden = true;
        page.pages = [];
        break;
      default:
        page.kind = 'sheet';
        page.type = 'document';
        page.markdown = pageMarkdown(node, documents.get(node.documentHash ?? '') ?? '');
        if (node.documentHash) page.documentId = node.documentHash;
        page.urls = { app: this.appUrl(scope, undefined, path) };
        page.slug = node.slug;
        page.path = path;
        if (node.description) page.description = node.description;
        page.layout = layoutOf(node);
        page.tags = [];
        if (node.hidden) page.hidden = true;
        nested = true;
    }
    return { page, nested };
  }

  private linkHref(node: PageNode, scope: ContentScope, revision: Revision): { href?: string } {
    const target = node.target;
    if (!target) return {};
    if (target.kind === 'url') return { href: target.url };
    if (target.kind === 'file') {
      const file = revision.content.files.find((candidate) => candidate.id === target.file);
      return file ? { href: this.files.downloadUrl(file) } : {};
    }
    if (target.space && target.space !== scope.spaceId) return {};
    const located = locatePages(revision.content.pages, [target.page]).get(target.page);
    if (!located || located.node.kind !== 'document') return {};
    const href = this.appUrl(scope, undefined, located.path);
    return { href: target.kind === 'anchor' ? `${href}#${encodeURIComponent(target.anchor)}` : href };
  }

  /** App address of the space (or change request) content, of one revision, or of one page. */
  appUrl(scope: ContentScope, revisionId?: string, pagePath?: string): string {
    let base = `/s/${scope.spaceId}`;
    if (scope.changeRequest) base += `/~/changes/${scope.changeRequest.number}`;
    else if (revisionId ?? scope.revisionId) base += `/~/revisions/${revisionId ?? scope.revisionId}`;
    return this.urls.app(pagePath ? `${base}/${pagePath}` : base);
  }
}
