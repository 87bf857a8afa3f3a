import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface TokenGrantRow {
  installationId: string;
  organizationId: string;
  integration: string;
  scopes: string[];
  spaceSelection: string;
  siteSelection: string;
  spaceIds: string[];
  siteIds: string[];
  botUserId: string;
  botEmail: string;
  botName: string;
  botCreatedAt: Date;
}

/** What a live installation token grants, read in one query (tokens authenticate every request they make). */
@Injectable()
export class TokenGrantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async byTokenHash(tokenHash: string, now: Date): Promise<TokenGrantRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT n.id AS installation_id, n.organization_id, i.name, i.manifest->'scopes' AS scopes, n.space_selection, n.site_selection,
              ARRAY(SELECT s.space_id FROM integration_space_installations s WHERE s.installation_id = n.id) AS space_ids,
              ARRAY(SELECT s.site_id FROM integration_site_installations s WHERE s.installation_id = n.id) AS site_ids,
              u.id AS bot_id, u.email AS bot_email, u.display_name AS bot_name, u.created_at AS bot_created_at
         FROM integration_installation_tokens t
         JOIN integration_installations n ON n.id = t.installation_id
         JOIN integrations i ON i.id = n.integration_id
         JOIN users u ON u.id = i.bot_user_id
        WHERE t.token_hash = $1 AND t.expires_at > $2 AND n.status <> 'paused'`,
      [tokenHash, now],
    );
    if (!row) return null;
    return {
      installationId: row.installation_id,
      organizationId: row.organization_id,
      integration: row.name,
      scopes: row.scopes ?? [],
      spaceSelection: row.space_selection,
      siteSelection: row.site_selection,
      spaceIds: row.space_ids ?? [],
      siteIds: row.site_ids ?? [],
      botUserId: row.bot_id,
      botEmail: row.bot_email,
      botName: row.bot_name,
      botCreatedAt: row.bot_created_at,
    };
  }
}
