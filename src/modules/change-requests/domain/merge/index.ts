/**
 * Three-way merge of revision contents (merging a change request, updating it from the space
 * head). Pure domain: no framework, no I/O; the caller loads and stores documents.
 */
export { mergeRevisionContent, type RevisionMergeResult } from './merge-revision-content';
export { mergeDisjointPageEdits } from './disjoint-page-edits';
export { mergeText, type TextMergeResult, type TextConflictRegion } from './text-merge';
export { mergeSequence } from './sequence-merge';
export type { MergeConflict, MergeConflictItem, MergeConflictReason } from './merge-conflict';
