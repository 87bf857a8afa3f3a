import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { SpaceVisibility } from '../domain/access-context';

/**
 * `AccessContext.spaceVisibility()` as SQL over the `spaces` table, in one place for every
 * module that lists spaces or what they contain. A space is visible when it is shared with the
 * caller, when it inherits from a parent (or the root) the caller sees, when it has an explicit
 * default level and the caller is a non-guest member, or when it sits in a collection shared
 * with the caller.
 */

/** As a TypeORM condition on the spaces alias (named parameters). */
export function applySpaceVisibility<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, v: SpaceVisibility): void {
  if (v.all) return;
  qb.andWhere(
    new Brackets((or) => {
      or.where('FALSE');
      if (v.spaceIds.length > 0) or.orWhere(`${alias}.id = ANY(:visSpaceIds)`, { visSpaceIds: v.spaceIds });
      if (v.inheritingParentIds.length > 0) {
        or.orWhere(`${alias}.default_level = 'inherit' AND ${alias}.parent_id = ANY(:visInheriting)`, { visInheriting: v.inheritingParentIds });
      }
      if (v.rootInherits) or.orWhere(`${alias}.default_level = 'inherit' AND ${alias}.parent_id IS NULL`);
      if (v.explicitLevelVisible) or.orWhere(`${alias}.default_level IS NOT NULL AND ${alias}.default_level <> 'inherit'`);
      if (v.grantedParentIds.length > 0) or.orWhere(`${alias}.parent_id = ANY(:visGranted)`, { visGranted: v.grantedParentIds });
    }),
  );
}

/** As raw SQL on the spaces alias, appending its positional parameters to `params`. */
export function spaceVisibilitySql(v: SpaceVisibility, alias: string, params: unknown[]): string {
  if (v.all) return 'TRUE';
  const or: string[] = [];
  if (v.spaceIds.length > 0) or.push(`${alias}.id = ANY($${params.push(v.spaceIds)}::varchar[])`);
  if (v.inheritingParentIds.length > 0) {
    or.push(`(${alias}.default_level = 'inherit' AND ${alias}.parent_id = ANY($${params.push(v.inheritingParentIds)}::varchar[]))`);
  }
  if (v.rootInherits) or.push(`(${alias}.default_level = 'inherit' AND ${alias}.parent_id IS NULL)`);
  if (v.explicitLevelVisible) or.push(`(${alias}.default_level IS NOT NULL AND ${alias}.default_level <> 'inherit')`);
  if (v.grantedParentIds.length > 0) or.push(`${alias}.parent_id = ANY($${params.push(v.grantedParentIds)}::varchar[])`);
  return or.length ? `(${or.join(' OR ')})` : 'FALSE';
}
