import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { LinkInvite } from '../domain/link-invite';
import { LinkInviteOrm } from './link-invite.orm';
import { assertTimestampCursor } from './members.repository';

@Injectable()
export class LinkInvitesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(LinkInviteOrm);
  }

  async insert(invite: LinkInvite, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(invite);
  }

  /** The organization's invite link with that id (a link of another organization is not found). */
  async find(organizationId: string, id: string, tx?: Tx): Promise<LinkInvite | null> {
    return toDomain(await this.repo(tx).findOneBy({ id, organizationId }));
  }

  async updateRole(organizationId: string, id: string, role: LinkInvite['role'], tx?: Tx): Promise<void> {
    await this.repo(tx).update({ id, organizationId }, { role });
  }

  /** Returns whether there was such a link. */
  async delete(organizationId: string, id: string, tx?: Tx): Promise<boolean> {
    const result = await this.repo(tx).delete({ id, organizationId });
    return (result.affected ?? 0) > 0;
  }

  /** Newest first; keyset on (created_at, id), served by organization_link_invites_org_created_idx. */
  async list(organizationId: string, request: PageRequest): Promise<Page<LinkInvite>> {
    assertTimestampCursor(request.page);
    const qb = this.repo().createQueryBuilder('i').where('i.organization_id = :organizationId', { organizationId });
    const page = await paginate(qb, { columns: ['i.created_at', 'i.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
    return { ...page, items: page.items.map((row) => toDomain(row) as LinkInvite) };
  }
}

function toDomain(row: LinkInviteOrm | null): LinkInvite | null {
  if (!row) return null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    role: row.role as LinkInvite['role'],
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
