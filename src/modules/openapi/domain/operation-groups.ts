import { slugify } from '../../content/domain/markdown/slug';
import type { ReferenceModel, ReferenceOperation } from './reference-model';

/** The page untagged operations are grouped under. */
export const UNTAGGED = 'Other';

export interface OperationGroup {
  title: string;
  /** Unique among the groups of one model. */
  slug: string;
  operations: ReferenceOperation[];
}

/** The tag an operation's page is named by when grouped by tag: its first tag, else `Other`. */
export function tagOf(operation: ReferenceOperation): string {
  return operation.tags[0] ?? UNTAGGED;
}

/**
 * How a spec's operations become pages: one page per tag (GitBook's default grouping: the tags
 * the spec declares in its order, then the others as operations name them, then `Other`) or,
 * `byOperation`, one per operation titled by its summary. Operations keep the order of the stored
 * document (the source's order). Published sites and
 * computed revisions both page a spec this way, so their pages match.
 */
export function groupOperations(model: ReferenceModel, byOperation: boolean): OperationGroup[] {
  const groups = new Map<string, { title: string; operations: ReferenceOperation[] }>();
  for (const operation of model.operations) {
    const key = byOperation ? `${operation.method} ${operation.path}` : tagOf(operation);
    const group = groups.get(key);
    if (group) group.operations.push(operation);
    else groups.set(key, { title: byOperation ? operationTitle(operation) : key, operations: [operation] });
  }
  if (!byOperation) {
    const declared = new Map(model.tags.map((tag, i) => [tag.name, i]));
    const rank = (key: string) => (key === UNTAGGED && !declared.has(key) ? Infinity : (declared.get(key) ?? model.tags.length));
    const ordered = [...groups].sort(([a], [b]) => rank(a) - rank(b));
    groups.clear();
    for (const [key, group] of ordered) groups.set(key, group);
  }
  const used = new Set<string>();
  return [...groups.values()].map(({ title, operations }) => {
    const base = slugify(byOperation ? operations[0].id || title : title) || 'operations';
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return { title, slug, operations };
  });
}

export function operationTitle(operation: ReferenceOperation): string {
  return operation.summary || `${operation.method} ${operation.path}`;
}
