import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { CustomFontOrm } from './custom-font.orm';

@Injectable()
export class CustomFontsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repository() {
    return this.dataSource.getRepository(CustomFontOrm);
  }

  list(organizationId: string, request: PageRequest): Promise<Page<CustomFontOrm>> {
    const qb = this.repository.createQueryBuilder('f').where('f.organization_id = :organizationId', { organizationId });
    return paginate(qb, { columns: ['f.created_at', 'f.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  find(organizationId: string, id: string): Promise<CustomFontOrm | null> {
    return this.repository.findOneBy({ organizationId, id });
  }

  async insert(font: CustomFontOrm): Promise<void> {
    await this.repository.insert(font as never);
  }

  async update(organizationId: string, id: string, patch: Pick<CustomFontOrm, 'fontFamily' | 'faces'>): Promise<boolean> {
    const result = await this.repository.update({ organizationId, id }, patch as never);
    return (result.affected ?? 0) > 0;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.repository.delete({ organizationId, id });
    return (result.affected ?? 0) > 0;
  }

  /** Which of these storage keys some font's faces name (the file sweep keeps those). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    // Containment per key uses the GIN index on `faces` (custom_fonts_faces_idx).
    const rows: Array<{ key: string }> = await this.dataSource.query(
      `SELECT key FROM unnest($1::text[]) AS key WHERE EXISTS (SELECT 1 FROM custom_fonts f WHERE f.faces @> jsonb_build_array(jsonb_build_object('storageKey', key)))`,
      [keys],
    );
    return new Set(rows.map((row) => row.key));
  }
}
