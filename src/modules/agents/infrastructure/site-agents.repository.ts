import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tx } from '../../../database/transactions';
import { SiteAgentFeedbackOrm, SiteAgentSettingsOrm } from './site-agent.orm';

@Injectable()
export class SiteAgentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  settings(siteId: string): Promise<SiteAgentSettingsOrm | null> {
    return this.dataSource.getRepository(SiteAgentSettingsOrm).findOneBy({ siteId });
  }

  /** Writes the site's settings whole (a PUT): the last write wins, in one statement. */
  async saveSettings(row: SiteAgentSettingsOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(SiteAgentSettingsOrm).upsert(row as never, ['siteId']);
  }

  async addFeedback(row: SiteAgentFeedbackOrm): Promise<void> {
    await this.dataSource.getRepository(SiteAgentFeedbackOrm).insert(row as never);
  }

  /** The site's agent reports since `since`, newest first (at most `limit`), for findings. */
  feedbackSince(siteId: string, since: Date, limit: number): Promise<SiteAgentFeedbackOrm[]> {
    return this.dataSource
      .getRepository(SiteAgentFeedbackOrm)
      .createQueryBuilder('f')
      .where('f.site_id = :siteId AND f.created_at >= :since', { siteId, since })
      .orderBy('f.created_at', 'DESC')
      .addOrderBy('f.id', 'DESC')
      .limit(limit)
      .getMany();
  }
}
