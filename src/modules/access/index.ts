/**
 * What other modules' repositories use of the access module directly: its visibility rule as SQL
 * over the spaces table (AccessContext.spaceVisibility()), so every list of spaces, or of what they
 * contain, applies the one rule. The rest (AccessService, the access context, roles) is imported
 * from its application and domain files.
 */
export { applySpaceVisibility, spaceVisibilitySql } from './infrastructure/space-visibility.sql';
