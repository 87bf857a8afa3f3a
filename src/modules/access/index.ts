/**
 * What other modules' repositories use of the access module directly: its visibility rule as SQL
 * over the spaces table (AccessContext.spaceVisibility()), so every list of spaces, or of what they
 * contain, applies the one rule; and the access context's columns, which a repository reading the
 * space a request names selects beside it (AccessService.contextFromRead builds the context). The
 * rest (AccessService, the access context, roles) is imported from its application and domain files.
 */
export { applySpaceVisibility, spaceVisibilitySql } from './infrastructure/space-visibility.sql';
export { accessContextColumns } from './infrastructure/access-context.sql';
export type { AccessContextRead } from './infrastructure/access-context.sql';
