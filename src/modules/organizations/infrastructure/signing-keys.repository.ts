import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SigningKeyOrm } from './signing-key.orm';

export interface StoredSigningKey {
  organizationId: string;
  kid: string;
  algorithm: string;
  publicJwk: Record<string, unknown>;
  privateJwk: Record<string, unknown>;
  createdAt: Date;
}

@Injectable()
export class SigningKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo() {
    return this.dataSource.getRepository(SigningKeyOrm);
  }

  async find(organizationId: string): Promise<StoredSigningKey | null> {
    return this.repo().findOneBy({ organizationId });
  }

  /**
   * Stores the key unless the organization already has one, and returns the organization's key:
   * when two first pings race, both end up signing with the same (first stored) key.
   */
  async insertOrGet(key: StoredSigningKey): Promise<StoredSigningKey> {
    await this.dataSource.query(
      `INSERT INTO organization_signing_keys (organization_id, kid, algorithm, public_jwk, private_jwk, created_at)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6) ON CONFLICT (organization_id) DO NOTHING`,
      [key.organizationId, key.kid, key.algorithm, JSON.stringify(key.publicJwk), JSON.stringify(key.privateJwk), key.createdAt],
    );
    const stored = await this.find(key.organizationId);
    if (!stored) throw new Error(`signing key of organization ${key.organizationId} vanished`);
    return stored;
  }
}
