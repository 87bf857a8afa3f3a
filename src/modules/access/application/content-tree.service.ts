import { Injectable } from '@nestjs/common';
import { InvalidError } from '@app/common';
import { Tx } from '../../../database/transactions';
import { ContentPosition, positionBetween } from '../domain/content-position';
import { ContentTreeRepository } from '../infrastructure/content-tree.repository';

/**
 * Placement of spaces and collections among their siblings. Spaces and collections under one
 * parent (a collection, or the organization root) share one ordering.
 */
@Injectable()
export class ContentTreeService {
  constructor(private readonly tree: ContentTreeRepository) {}

  /** Position for a new last child of the parent. */
  async endPosition(organizationId: string, parentId: string | null, tx?: Tx): Promise<number> {
    return positionBetween(await this.tree.lastPosition(organizationId, parentId, tx), null);
  }

  /**
   * Resolves a move's `position` under `parentId`. The named siblings must exist in the
   * organization and sit under that parent, else 400 ("invalid position"). `movingId` is the
   * item being moved; naming it as its own neighbour is invalid.
   */
  async resolve(organizationId: string, parentId: string | null, position: ContentPosition, movingId: string, tx?: Tx): Promise<number> {
    const load = async (key: 'before' | 'after') => {
      const pointer = position[key];
      if (!pointer) return null;
      const row = await this.tree.find(organizationId, pointer, tx);
      if (!row || row.id === movingId || row.parentId !== parentId) {
        throw new InvalidError(`position.${key}: no such sibling under the target parent`);
      }
      return row;
    };
    const before = await load('before');
    const after = await load('after');
    if (!before && !after) return this.endPosition(organizationId, parentId, tx);
    // `before: X` places the item just before X; `after: Y` just after Y; both: between them.
    const lower = after ? after.position : await this.tree.neighbour(organizationId, parentId, (before as { position: number }).position, 'before', tx);
    const upper = before ? before.position : await this.tree.neighbour(organizationId, parentId, (after as { position: number }).position, 'after', tx);
    if (lower !== null && upper !== null && lower >= upper) {
      throw new InvalidError('position: "after" must come before "before" among the siblings');
    }
    return positionBetween(lower, upper);
  }

  /**
   * Siblings an item moving from position `from` to `to` under one parent would pass; zero
   * means the move keeps its place, i.e. changes nothing.
   */
  siblingsBetween(organizationId: string, parentId: string | null, from: number, to: number, movingId: string, tx?: Tx): Promise<number> {
    return this.tree.countBetween(organizationId, parentId, from, to, movingId, tx);
  }
}
