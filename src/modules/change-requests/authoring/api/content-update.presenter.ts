import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { User } from '../../../identity/domain/user';
import { FilesService } from '../../../content/application/files.service';
import { RevisionFile } from '../../../content/domain/revision-content';
import { ChangeRequestPresenter } from '../../api/change-request.presenter';
import { ChangeRequestsService } from '../../application/change-requests.service';
import { ContentUpdateOutcome } from '../application/change-request-authoring.service';
import { PageOutcome } from '../domain/apply-changes';

/** GitBook's answers to `updateChangeRequestContent`: `ChangeRequestContentUpdate` (default), or the bare change request (compat). */
@Injectable()
export class ContentUpdatePresenter {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestPresenter,
    private readonly files: FilesService,
    private readonly urls: Urls,
  ) {}

  async present(outcome: ContentUpdateOutcome, compat: boolean, caller: User) {
    const [view] = await this.changeRequests.views([{ changeRequest: outcome.changeRequest, spaceRevision: outcome.space.space.revisionId }], caller);
    const changeRequest = this.presenter.present(view);
    if (compat) return changeRequest;
    return {
      changeRequest,
      changes: outcome.pages.map((page) => this.change(outcome, page)),
      insertedFiles: outcome.insertedFiles.map((file) => this.file(file)),
    };
  }

  private change({ changeRequest }: ContentUpdateOutcome, page: PageOutcome) {
    if (page.kind === 'deleted') return { object: 'deleted_page' as const, page: page.pageId };
    const ref = {
      object: 'page' as const,
      id: page.pageId,
      urls: { location: this.urls.api(`/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}/content/page/${page.pageId}`) },
    };
    if (page.kind === 'updated') return { object: 'updated_page' as const, page: ref };
    return { object: 'created_page' as const, ...(page.ref ? { ref: page.ref } : {}), page: ref };
  }

  private file(file: RevisionFile) {
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      downloadURL: this.files.downloadUrl(file),
      size: file.size,
      ...(file.dimensions ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } } : {}),
    };
  }
}
