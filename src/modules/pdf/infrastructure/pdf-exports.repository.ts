import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PdfExportOrm } from './pdf-export.orm';

export type PdfExport = Omit<PdfExportOrm, 'space'>;

@Injectable()
export class PdfExportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(row: PdfExport): Promise<void> {
    await this.dataSource.getRepository(PdfExportOrm).insert(row);
  }

  find(token: string): Promise<PdfExport | null> {
    return this.dataSource.getRepository(PdfExportOrm).findOneBy({ token });
  }
}
