import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { CommentReplyOrm } from './comment-reply.orm';
import { CommentOrm } from './comment.orm';

/**
 * One user's emoji on a comment or a reply. `subject_id` is the comment's id, or the reply's;
 * the primary key makes adding the same reaction twice a no-op. Reactions go with their
 * comment or reply (foreign keys).
 */
@Entity('comment_reactions')
@Index('comment_reactions_comment_idx', ['commentId'])
@Index('comment_reactions_reply_idx', ['replyId'])
export class CommentReactionOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'subject_id' }))
  subjectId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'user_id' }))
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  emoji: string;

  @Column(idColumn({ name: 'comment_id' }))
  commentId: string;

  @ManyToOne(() => CommentOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id' })
  comment?: CommentOrm;

  @Column(idColumn({ name: 'reply_id', nullable: true }))
  replyId: string | null;

  @ManyToOne(() => CommentReplyOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'reply_id' })
  reply?: CommentReplyOrm;

  @Column(timestampColumn({ name: 'reacted_at' }))
  reactedAt: Date;
}
