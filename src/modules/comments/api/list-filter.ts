import { CommentListFilter } from '../infrastructure/comments.repository';
import { ListCommentsQueryDto } from './dto/comment-queries.dto';

/** The list filter a comments query asks for, with GitBook's defaults (all statuses, newest first). */
export function listFilter(query: ListCommentsQueryDto): CommentListFilter {
  return { status: query.status ?? 'all', pageId: query.targetPage, authors: query.authors, order: query.order ?? 'desc' };
}
