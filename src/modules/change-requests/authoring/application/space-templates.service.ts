import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, LockedError, NotFoundError, newId } from '@app/common';
import { Transactions } from '../../../../database/transactions';
import { assertRole } from '../../../access/application/access.service';
import { ContentStore } from '../../../content/application/content-store.service';
import { ContentIndexer } from '../../../search-index/application/content-indexer.service';
import { User } from '../../../identity/domain/user';
import { SpacesService } from '../../../spaces/application/spaces.service';
import { applyChanges } from '../domain/apply-changes';
import { findTemplate, parseTemplateParams, templateChanges } from '../domain/templates';
import { ChangeRequestAuthoringService } from './change-request-authoring.service';

export interface ApplyTemplateInput {
  id: string;
  /** `{contentRefs?}` as sent (validated against the template). */
  params?: Record<string, unknown>;
  changeRequestId?: string;
}

/**
 * POST /spaces/{spaceId}/content/template: a built-in template (see domain/templates.ts)
 * inserted after the existing pages, either into a change request (one revision of it, exactly
 * like a batch of `insert_page` changes) or, without `changeRequestId`, straight into the
 * space: a new revision of type `template` on top of the current one, made current by
 * compare-and-set (409 if the space moved meanwhile). Either way the caller needs `edit` on
 * the space and the space must not be `locked` (423).
 */
@Injectable()
export class SpaceTemplatesService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly content: ContentStore,
    private readonly authoring: ChangeRequestAuthoringService,
    private readonly transactions: Transactions,
    private readonly indexer: ContentIndexer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async apply(caller: User, spaceId: string, input: ApplyTemplateInput): Promise<void> {
    const { space, role } = await this.spaces.get(caller, spaceId);
    assertRole(role, 'edit', 'space');
    if (space.editMode === 'locked') {
      throw new LockedError(`Space "${space.id}" is locked: its content and change requests cannot be edited or merged`);
    }
    const template = findTemplate(input.id);
    const changes = templateChanges(template, parseTemplateParams(template, input.params));

    if (input.changeRequestId !== undefined) {
      await this.authoring.updateContent(caller, spaceId, input.changeRequestId, changes);
      return;
    }

    const head = await this.content.getInSpace(spaceId, space.revisionId);
    if (!head) throw new NotFoundError(`Revision "${space.revisionId}" of space "${spaceId}" not found`);
    const applied = applyChanges({
      content: head.content,
      documents: new Map(),
      changes,
      baseRevisionId: head.id,
      revisions: new Map(),
      files: new Map(),
      now: this.clock.now().toISOString(),
      newId: () => newId(),
    });
    await this.transactions.run(async (tx) => {
      const revision = await this.content.commit(
        { spaceId, parents: [head.id], type: 'template', content: applied.content, documents: applied.documents, createdBy: caller.id },
        tx,
      );
      if (!(await this.spaces.advanceRevision(spaceId, head.id, revision.id, tx))) {
        throw new ConflictError('The space content was changed concurrently; nothing was applied, retry');
      }
      await this.indexer.revisionBecameCurrent(spaceId, head.id, revision.id, tx);
    });
  }
}
