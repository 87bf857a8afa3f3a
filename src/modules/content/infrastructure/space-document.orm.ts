import { Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { primaryIdColumn } from '../../../database/columns';

/**
 * Which documents (by hash) some revision of a space has used, recorded when a revision brings
 * them: bodies are shared between spaces by hash, so a document id alone must never open
 * another space's text, and page trees are no longer one JSON value a query could search.
 */
@Entity('space_documents')
export class SpaceDocumentOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @PrimaryColumn({ type: 'char', length: 64 })
  hash: string;

}
