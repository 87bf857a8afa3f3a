import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../../../database/columns';

/** A page body, stored once per distinct text (content-addressed by its SHA-256). */
@Entity('documents')
export class DocumentOrm {
  @PrimaryColumn({ type: 'char', length: 64 })
  hash: string;

  @Column({ type: 'text' })
  markdown: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
