import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import { ContentStore } from '../../content/application/content-store.service';
import { SemanticChangesObject, SemanticChangesReader } from '../../content/application/semantic-changes.reader';
import { Revision } from '../../content/domain/revision';
import { AccessService } from '../../access/application/access.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { ChangeRequestsRepository } from '../infrastructure/change-requests.repository';
import { ChangeRequestsService } from './change-requests.service';

/** One contributor of a change request, as GitBook's `ChangeRequestUserContributor` needs it. */
export interface ContributorView {
  user: User;
  /** Revisions of the change request's line the user authored. */
  count: number;
  /** When the last of them was made (the first contribution when none is found on the line). */
  updatedAt: Date;
  /** Who is looking (decides whether e-mails show). */
  viewer: UserViewer;
}

/** How far back the contributor count follows a change request's line (its revisions since the base). */
const MAX_LINE_WALK = 10_000;

/**
 * Reads about a change request's content and people: its semantic changes and contributors.
 * Whoever can read the space can read them; a change request of another space is 404.
 */
@Injectable()
export class ChangeRequestReadsService {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly repository: ChangeRequestsRepository,
    private readonly content: ContentStore,
    private readonly changes: SemanticChangesReader,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
  ) {}

  /**
   * What the change request changes: its head against the space revision its content is based
   * on (`revisionMergedAncestor`: where it was created from, or last updated from), so what an
   * update brought in from the space is not counted as the change request's own.
   */
  async semanticChanges(caller: User, spaceId: string, idOrNumber: string, limit?: number): Promise<SemanticChangesObject> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    const head = await this.revision(space.space.id, changeRequest.revision);
    const base = await this.revision(space.space.id, changeRequest.revisionMergedAncestor);
    return this.changes.between(base, head, limit);
  }

  /**
   * Everyone who edited the change request's content, by user id. `count` and `updatedAt` come
   * from the revisions on its line (from the head back along first parents to its initial
   * revision) that they authored.
   */
  async contributors(caller: User, spaceId: string, idOrNumber: string): Promise<ContributorView[]> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    const rows = await this.repository.contributors(changeRequest.id);
    if (rows.length === 0) return [];
    const authors = await this.content.authorsAlongFirstParents(space.space.id, changeRequest.revision, changeRequest.revisionInitial, MAX_LINE_WALK);
    const tally = new Map(authors.map((author) => [author.userId, author]));
    const users = await this.identity.findByIds(rows.map((row) => row.userId));
    const viewer = await this.access.viewerIn(caller, space.space.organizationId);
    return rows.flatMap((row) => {
      const user = users.get(row.userId);
      if (!user) return [];
      const seen = tally.get(row.userId);
      return [{ user, count: seen?.count ?? 0, updatedAt: seen ? new Date(seen.last) : row.firstContributedAt, viewer }];
    });
  }

  private async revision(spaceId: string, id: string): Promise<Revision> {
    const revision = await this.content.getInSpace(spaceId, id);
    if (!revision) throw NotFoundError.of('Revision', id);
    return revision;
  }
}
