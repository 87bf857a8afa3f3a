import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { OpenAPISpecVersionOrm } from './openapi-spec-version.orm';
import { OpenAPISpecOrm } from './openapi-spec.orm';

/** A version without its document and text (lists and version objects never need them). */
export type VersionSummary = Pick<OpenAPISpecVersionOrm, 'id' | 'specId' | 'createdAt' | 'contentHash'>;

const SUMMARY_COLUMNS = ['v.id', 'v.specId', 'v.createdAt', 'v.contentHash'];

@Injectable()
export class OpenAPISpecsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private specs(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(OpenAPISpecOrm);
  }

  private versions(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(OpenAPISpecVersionOrm);
  }

  list(organizationId: string, request: PageRequest): Promise<Page<OpenAPISpecOrm>> {
    const qb = this.specs().createQueryBuilder('s').where('s.organization_id = :organizationId', { organizationId });
    return paginate(qb, { columns: ['s.created_at', 's.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  findBySlug(organizationId: string, slug: string, tx?: Tx): Promise<OpenAPISpecOrm | null> {
    return this.specs(tx).findOneBy({ organizationId, slug });
  }

  findBySlugs(organizationId: string, slugs: string[]): Promise<OpenAPISpecOrm[]> {
    return slugs.length ? this.specs().findBy({ organizationId, slug: In(slugs) }) : Promise.resolve([]);
  }

  findById(id: string, tx?: Tx): Promise<OpenAPISpecOrm | null> {
    return this.specs(tx).findOneBy({ id });
  }

  /** The row, locked for the rest of the transaction. */
  lockBySlug(organizationId: string, slug: string, tx: Tx): Promise<OpenAPISpecOrm | null> {
    return this.specs(tx).createQueryBuilder('s').setLock('pessimistic_write').where({ organizationId, slug }).getOne();
  }

  /** Inserts unless the slug is taken; false when it is. */
  async insert(spec: OpenAPISpecOrm, tx: Tx): Promise<boolean> {
    const result = await this.specs(tx).createQueryBuilder().insert().values(spec).orIgnore().execute();
    return (result.raw as unknown[]).length > 0;
  }

  async update(id: string, patch: Partial<OpenAPISpecOrm>, tx?: Tx): Promise<void> {
    await this.specs(tx).update({ id }, patch as never);
  }

  /** Applies the patch only while the spec is still at `generation`; false when a newer request superseded it. */
  async updateIfGeneration(id: string, generation: number, patch: Partial<OpenAPISpecOrm>, tx?: Tx): Promise<boolean> {
    const result = await this.specs(tx).update({ id, generation }, patch as never);
    return (result.affected ?? 0) > 0;
  }

  async delete(organizationId: string, slug: string, tx?: Tx): Promise<boolean> {
    const result = await this.specs(tx).delete({ organizationId, slug });
    return (result.affected ?? 0) > 0;
  }

  /** Marks the spec for processing again: `pending`, next generation. Null when it is gone. */
  async bumpGeneration(id: string, tx: Tx): Promise<number | null> {
    const [rows] = (await tx.query(
      `UPDATE openapi_specs SET generation = generation + 1, processing_state = 'pending' WHERE id = $1 RETURNING generation`,
      [id],
    )) as [Array<{ generation: number }>, number];
    return rows[0]?.generation ?? null;
  }

  /** URL-sourced specs after `after` (keyset by id), for the refresh schedule. */
  async urlSourcedAfter(after: string | null, limit: number): Promise<Array<{ id: string; organizationId: string }>> {
    const qb = this.specs()
      .createQueryBuilder('s')
      .select('s.id', 'id')
      .addSelect('s.organization_id', 'organizationId')
      .where('s.source_url IS NOT NULL')
      .orderBy('s.id', 'ASC')
      .limit(limit);
    if (after) qb.andWhere('s.id > :after', { after });
    return qb.getRawMany<{ id: string; organizationId: string }>();
  }

  listVersions(specId: string, request: PageRequest): Promise<Page<OpenAPISpecVersionOrm>> {
    const qb = this.versions().createQueryBuilder('v').select(SUMMARY_COLUMNS).where('v.spec_id = :specId', { specId });
    return paginate(qb, { columns: ['v.created_at', 'v.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  findVersion(specId: string, id: string): Promise<VersionSummary | null> {
    return this.versions().createQueryBuilder('v').select(SUMMARY_COLUMNS).where('v.spec_id = :specId AND v.id = :id', { specId, id }).getOne();
  }

  findVersionContent(specId: string, id: string): Promise<OpenAPISpecVersionOrm | null> {
    return this.versions().findOneBy({ specId, id });
  }

  /** The spec's version of this content, inserting it when new (content-addressed; safe to repeat). */
  async upsertVersion(version: OpenAPISpecVersionOrm, tx: Tx): Promise<{ id: string; created: boolean }> {
    await this.versions(tx).createQueryBuilder().insert().values(version as never).orIgnore().execute();
    const row = await this.versions(tx).createQueryBuilder('v').select(['v.id']).where('v.spec_id = :specId AND v.content_hash = :hash', { specId: version.specId, hash: version.contentHash }).getOneOrFail();
    return { id: row.id, created: row.id === version.id };
  }
}
