import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { Revision } from '../../content/domain/revision';
import { ContentScope } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { ChangeRequestView } from '../../change-requests/application/change-requests.service';

/** A revision the caller may read, and whose content it is. */
export interface ReadableContent {
  revision: Revision;
  scope: ContentScope;
  /** For a merge revision: the change request it merged. */
  mergedFrom?: ChangeRequestView;
}

/**
 * Which revision a content read is about, after authorization: the space's current revision for
 * `/spaces/{spaceId}/content...`, the change request's head for
 * `/spaces/{spaceId}/change-requests/{changeRequestId}/content...` (id or number). Anyone who
 * sees the space may read its content and its change requests'; a space the caller may not see,
 * or a change request of another space, is "not found".
 */
@Injectable()
export class ContentReadsService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly store: ContentStore,
  ) {}

  async spaceContent(caller: User, spaceId: string): Promise<ReadableContent> {
    const { space } = await this.spaces.get(caller, spaceId);
    const revision = await this.store.getInSpace(space.id, space.revisionId);
    if (!revision) throw NotFoundError.of('Revision', space.revisionId);
    const mergedFrom = await this.mergedFrom(caller, space.id, revision, space.revisionId);
    return { revision, scope: { spaceId: space.id }, ...(mergedFrom ? { mergedFrom } : {}) };
  }

  /**
   * A revision of the space by id, whichever line it is on (the space's history or a change
   * request's); another space's revision is "not found", even in the same organization.
   */
  async revisionContent(caller: User, spaceId: string, revisionId: string): Promise<ReadableContent> {
    const { space } = await this.spaces.get(caller, spaceId);
    // A published site's reader sees what the site shows: the current revision, no history, no drafts.
    if (caller.siteScope && revisionId !== space.revisionId) throw NotFoundError.of('Revision', revisionId);
    const revision = await this.store.getInSpace(space.id, revisionId);
    if (!revision) throw NotFoundError.of('Revision', revisionId);
    const mergedFrom = await this.mergedFrom(caller, space.id, revision, space.revisionId);
    return { revision, scope: { spaceId: space.id, revisionId: revision.id }, ...(mergedFrom ? { mergedFrom } : {}) };
  }

  /**
   * The body behind a `documentId` of the space's content (a page's or reusable content's, in
   * any of its revisions; for a site's reader, of the current one), as stored markdown; "not found"
   * when the space never had it.
   */
  async document(caller: User, spaceId: string, documentId: string): Promise<string> {
    const { space } = await this.spaces.get(caller, spaceId);
    const current = await this.store.getInSpace(space.id, space.revisionId);
    if (!(await this.store.spaceHasDocument(space.id, documentId, current, { currentOnly: !!caller.siteScope }))) throw NotFoundError.of('Document', documentId);
    const body = (await this.store.loadDocuments([documentId])).get(documentId);
    if (body === undefined) throw NotFoundError.of('Document', documentId);
    return body;
  }

  /** The change request a merge revision merged; a site's reader is not shown the space's drafts or who wrote them. */
  private async mergedFrom(caller: User, spaceId: string, revision: Revision, currentRevisionId: string): Promise<ChangeRequestView | null> {
    if (revision.type !== 'merge' || caller.siteScope) return null;
    return this.changeRequests.mergedAs(caller, spaceId, revision.id, currentRevisionId);
  }

  async changeRequestContent(caller: User, spaceId: string, changeRequestId: string): Promise<ReadableContent> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, changeRequestId);
    const revision = await this.store.getInSpace(space.space.id, changeRequest.revision);
    if (!revision) throw NotFoundError.of('Revision', changeRequest.revision);
    return { revision, scope: { spaceId: space.space.id, changeRequest: { id: changeRequest.id, number: changeRequest.number } } };
  }
}
