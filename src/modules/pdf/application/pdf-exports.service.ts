import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Urls } from '@app/common';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { ContentStore } from '../../content/application/content-store.service';
import { markdownToDocument, parsePageMarkdown } from '../../content/domain/markdown';
import { PageNode } from '../../content/domain/revision-content';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { PdfContent, PdfPage } from '../domain/pdf-content';
import { PdfExportsRepository } from '../infrastructure/pdf-exports.repository';
import { renderPdf } from '../infrastructure/pdf-renderer';

/** How long a PDF address works after it was handed out. */
const EXPORT_TTL_MS = 60 * 60 * 1000;

export interface PdfOptions {
  only?: boolean;
  page?: string;
}

/**
 * PDFs of a space's or a change request's content. Asking returns an address (checked against
 * the caller's access now); the address is a bearer secret that renders the same revision for
 * an hour, so it can be opened in a browser or handed to a download tool.
 */
@Injectable()
export class PdfExportsService {
  constructor(
    private readonly exports: PdfExportsRepository,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentStore,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async forSpace(caller: User, spaceId: string, options: PdfOptions): Promise<{ url: string }> {
    const { space } = await this.spaces.get(caller, spaceId);
    return this.create(caller, space.id, space.revisionId, space.title, options);
  }

  async forChangeRequest(caller: User, spaceId: string, changeRequestId: string, options: PdfOptions): Promise<{ url: string }> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, changeRequestId);
    const title = `${space.space.title} #${changeRequest.number}${changeRequest.subject ? ` ${changeRequest.subject}` : ''}`;
    return this.create(caller, space.space.id, changeRequest.revision, title, options);
  }

  /** The PDF behind an address; 404 once it expired or for an unknown token. */
  async render(token: string): Promise<{ title: string; pdf: Buffer }> {
    const found = await this.exports.find(token);
    if (!found || found.expiresAt.getTime() < this.clock.now().getTime()) throw NotFoundError.of('PDF');
    const revision = await this.content.getInSpace(found.spaceId, found.revisionId);
    if (!revision) throw NotFoundError.of('PDF');
    const pages = selectPages(revision.content.pages, found.pageId);
    const documents = await this.content.loadDocuments(pages.flatMap(({ page }) => (page.documentHash ? [page.documentHash] : [])));
    const content: PdfContent = {
      title: found.title,
      pages: pages.map(({ page, depth }): PdfPage => {
        const markdown = page.documentHash ? documents.get(page.documentHash) ?? '' : '';
        return { title: page.title, depth, document: markdownToDocument(parsePageMarkdown(markdown).body) };
      }),
    };
    return { title: found.title, pdf: await renderPdf(content) };
  }

  private async create(caller: User, spaceId: string, revisionId: string, title: string, options: PdfOptions): Promise<{ url: string }> {
    if (options.only && !options.page) throw new InvalidError('only: requires "page"');
    if (options.page) {
      const revision = await this.content.getInSpace(spaceId, revisionId);
      if (!revision || selectPages(revision.content.pages, options.page).length === 0) throw NotFoundError.of('Page', options.page);
    }
    const now = this.clock.now();
    const token = randomBytes(24).toString('base64url');
    await this.exports.insert({
      token,
      spaceId,
      revisionId,
      pageId: options.page ?? null,
      title: title.slice(0, 255),
      createdBy: caller.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EXPORT_TTL_MS),
    });
    return { url: this.urls.root(`/pdf/${token}`) };
  }
}

/** Pages in reading order (depth first), or only the page with the id (empty if absent). */
function selectPages(pages: PageNode[], onlyId: string | null): { page: PageNode; depth: number }[] {
  const out: { page: PageNode; depth: number }[] = [];
  const walk = (nodes: PageNode[], depth: number) => {
    for (const page of nodes) {
      if (!onlyId || page.id === onlyId) {
        // Links and computed pages have no document of their own.
        if (page.kind === 'document' || page.kind === 'group') out.push({ page, depth });
      }
      walk(page.pages, depth + 1);
    }
  };
  walk(pages, 0);
  return out;
}
