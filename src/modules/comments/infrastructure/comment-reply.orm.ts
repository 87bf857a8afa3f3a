import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { CommentOrm } from './comment.orm';

/** A reply in a comment's thread; goes with its comment. */
@Entity('comment_replies')
@Index('comment_replies_comment_posted_idx', ['commentId', 'postedAt', 'id'])
export class CommentReplyOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'comment_id' }))
  commentId: string;

  @ManyToOne(() => CommentOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id' })
  comment?: CommentOrm;

  @Column(idColumn({ name: 'posted_by' }))
  postedBy: string;

  @Column(timestampColumn({ name: 'posted_at' }))
  postedAt: Date;

  @Column(timestampColumn({ name: 'edited_at', nullable: true }))
  editedAt: Date | null;

  /** Markdown. */
  @Column({ type: 'text' })
  body: string;
}
