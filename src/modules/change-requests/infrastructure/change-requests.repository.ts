import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SpaceVisibility } from '../../access/domain/access-context';
import { ChangeRequest, ChangeRequestState, ChangeRequestStatus, StyleguideCheckCounts } from '../domain/change-request';
import { ChangeRequestContributorOrm } from './change-request-contributor.orm';
import { ChangeRequestOrm } from './change-request.orm';
import { applySpaceVisibility } from '../../access';

export interface ChangeRequestFilter {
  status: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

/** Where to list: one space, or the spaces of an organization the caller may see. */
export type ChangeRequestScope = { spaceId: string } | { organizationId: string; visibility: SpaceVisibility };

/** A change request with the current revision of its space (for `outdated`). */
export interface ChangeRequestRow {
  changeRequest: ChangeRequest;
  spaceRevision: string;
}

/** Newest first. */
const ORDER = { columns: ['cr.created_at', 'cr.id'], keys: ['createdAt', 'id'], direction: 'DESC' as const };

@Injectable()
export class ChangeRequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(ChangeRequestOrm);
  }

  async insert(changeRequest: ChangeRequest, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(changeRequest.toState()));
  }

  async findInSpace(spaceId: string, ref: { id: string } | { number: number }, tx?: Tx): Promise<ChangeRequest | null> {
    const row = await this.repo(tx).findOneBy('id' in ref ? { spaceId, id: ref.id } : { spaceId, number: ref.number });
    return row ? toDomain(row) : null;
  }

  async findById(id: string, tx?: Tx): Promise<ChangeRequest | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  /** The newest open or draft change request of the space a style guide check of the site opened, locked for update. */
  async findOpenStyleguideCheck(spaceId: string, siteId: string, tx: Tx): Promise<ChangeRequest | null> {
    const row = await this.repo(tx)
      .createQueryBuilder('cr')
      .setLock('pessimistic_write')
      .where("cr.space_id = :spaceId AND cr.styleguide IS NOT NULL AND cr.styleguide->>'site' = :siteId AND cr.status IN ('draft', 'open')", { spaceId, siteId })
      .orderBy('cr.created_at', 'DESC')
      .addOrderBy('cr.id', 'DESC')
      .getOne();
    return row ? toDomain(row) : null;
  }

  /**
   * Records a finished check on the change request's style guide marker (kept as it is otherwise),
   * bumping the version: the answer changed, so its entity tag must.
   */
  async recordStyleguideCheck(id: string, outcome: StyleguideCheckCounts, checkedAt: Date): Promise<void> {
    await this.repo().query(
      `UPDATE change_requests
          SET styleguide = styleguide || jsonb_build_object('changedPages', $2::int, 'unrevisedPages', $3::int, 'uncheckedPages', $4::int, 'checkedAt', $5::text),
              version = version + 1
        WHERE id = $1 AND styleguide IS NOT NULL`,
      [id, outcome.changedPages, outcome.unrevisedPages, outcome.uncheckedPages, checkedAt.toISOString()],
    );
  }

  /** The change request whose merge produced the space revision, if any. */
  async findMergedAs(spaceId: string, revisionId: string, tx?: Tx): Promise<ChangeRequest | null> {
    const row = await this.repo(tx).findOneBy({ spaceId, revisionMerged: revisionId });
    return row ? toDomain(row) : null;
  }

  /**
   * Writes the change request's mutable state if nobody changed it since `expected.version`
   * was read, bumping the version. `comments` is never written here (see adjustComments).
   * Returns the saved change request, or null when another writer won the race.
   */
  async compareAndSet(next: ChangeRequest, tx?: Tx): Promise<ChangeRequest | null> {
    const s = next.toState();
    // TypeORM answers an UPDATE with [rows, affected].
    const [returned] = (await (tx ?? this.dataSource.manager).query(
      `UPDATE change_requests
          SET status = $3, subject = $4, description = $5::jsonb, revision = $6, revision_merged_ancestor = $7,
              revision_merged = $8, updated_at = $9, merged_at = $10, conflicts = $11::jsonb, version = version + 1
        WHERE id = $1 AND version = $2
        RETURNING version`,
      [s.id, s.version, s.status, s.subject, s.description === null ? null : JSON.stringify(s.description), s.revision,
        s.revisionMergedAncestor, s.revisionMerged, s.updatedAt, s.mergedAt, JSON.stringify(s.conflicts)],
    )) as [{ version: number }[], number];
    if (returned.length === 0) return null;
    return ChangeRequest.fromState({ ...s, version: returned[0].version });
  }

  /** Change requests naming each cluster, by status (conversation insights' task counts). */
  async countByCluster(organizationId: string, clusterIds: string[]): Promise<Array<{ cluster: string; status: string; count: number }>> {
    if (clusterIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT conversations_issues_cluster AS cluster, status, count(*)::int AS count FROM change_requests
        WHERE organization_id = $1 AND conversations_issues_cluster = ANY($2::text[]) GROUP BY 1, 2`,
      [organizationId, clusterIds],
    );
  }

  async adjustComments(changeRequestId: string, delta: number, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(`UPDATE change_requests SET comments = GREATEST(comments + $2, 0) WHERE id = $1`, [
      changeRequestId,
      delta,
    ]);
  }

  async addContributor(changeRequestId: string, userId: string, now: Date, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager)
      .createQueryBuilder()
      .insert()
      .into(ChangeRequestContributorOrm)
      .values({ changeRequestId, userId, firstContributedAt: now })
      .orIgnore()
      .execute();
  }

  /** Everyone who authored a revision of the change request, by user id. */
  async contributors(changeRequestId: string): Promise<{ userId: string; firstContributedAt: Date }[]> {
    const rows = await this.dataSource.manager.getRepository(ChangeRequestContributorOrm).find({
      where: { changeRequestId },
      order: { userId: 'ASC' },
    });
    return rows.map((row) => ({ userId: row.userId, firstContributedAt: row.firstContributedAt }));
  }

  async list(scope: ChangeRequestScope, filter: ChangeRequestFilter, request: PageRequest): Promise<Page<ChangeRequestRow>> {
    const qb = this.repo()
      .createQueryBuilder('cr')
      .innerJoin('cr.space', 's')
      .addSelect(['s.id', 's.revisionId', 's.organizationId'])
      .where('s.deleted_at IS NULL')
      .andWhere('cr.status = :status', { status: filter.status });
    if ('spaceId' in scope) {
      qb.andWhere('cr.space_id = :spaceId', { spaceId: scope.spaceId });
    } else {
      // The space's organization, not the denormalized column: spaces may move to another one.
      qb.andWhere('s.organization_id = :organizationId', { organizationId: scope.organizationId });
      applySpaceVisibility(qb, 's', scope.visibility);
    }
    if (filter.creator) qb.andWhere('cr.created_by = :creator', { creator: filter.creator });
    if (filter.contributor) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = cr.id AND c.user_id = :contributor)',
        { contributor: filter.contributor },
      );
    }
    if (filter.requestedReviewer) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM change_request_requested_reviewers rr WHERE rr.change_request_id = cr.id AND rr.user_id = :reviewer)',
        { reviewer: filter.requestedReviewer },
      );
    }
    if (filter.conversationsIssuesCluster) {
      qb.andWhere('cr.conversations_issues_cluster = :cluster', { cluster: filter.conversationsIssuesCluster });
    }
    const page = await paginate(qb, ORDER, request);
    return {
      ...page,
      items: page.items.map((row) => ({
        changeRequest: toDomain(row, row.space?.organizationId),
        spaceRevision: row.space!.revisionId,
      })),
    };
  }
}

function toRow(s: ChangeRequestState): QueryDeepPartialEntity<ChangeRequestOrm> {
  return { ...s } as QueryDeepPartialEntity<ChangeRequestOrm>;
}

function toDomain(row: ChangeRequestOrm, organizationId?: string): ChangeRequest {
  return ChangeRequest.fromState({
    id: row.id,
    spaceId: row.spaceId,
    organizationId: organizationId ?? row.organizationId,
    number: row.number,
    status: row.status as ChangeRequestStatus,
    subject: row.subject,
    description: row.description,
    createdBy: row.createdBy,
    revisionInitial: row.revisionInitial,
    revision: row.revision,
    revisionMergedAncestor: row.revisionMergedAncestor,
    revisionMerged: row.revisionMerged,
    comments: row.comments,
    conversationsIssuesCluster: row.conversationsIssuesCluster,
    styleguide: row.styleguide,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    mergedAt: row.mergedAt,
    conflicts: row.conflicts ?? [],
    version: row.version,
  });
}
