import type { PageNode } from '../../../content/domain/revision-content';

export type PageFields = Omit<PageNode, 'pages'>;

interface Entry {
  fields: PageFields;
  parent: string | null;
  children: string[];
}

/**
 * A page tree that can be changed page by page (fields, place) and turned back into nodes.
 * Conflict resolution uses it to copy single pages from one side of a merge to the other.
 */
export class EditablePageTree {
  private readonly entries = new Map<string, Entry>();
  private readonly roots: string[] = [];

  constructor(pages: readonly PageNode[]) {
    const stack: Array<{ nodes: readonly PageNode[]; parent: string | null }> = [{ nodes: pages, parent: null }];
    while (stack.length > 0) {
      const { nodes, parent } = stack.pop()!;
      for (const node of nodes) {
        if (this.entries.has(node.id)) continue; // invalid input (duplicate id): the first one wins
        const { pages: children, ...fields } = node;
        this.entries.set(node.id, { fields, parent, children: [] });
        this.childrenOf(parent).push(node.id);
        if (children.length > 0) stack.push({ nodes: children, parent: node.id });
      }
    }
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  fields(id: string): PageFields | undefined {
    return this.entries.get(id)?.fields;
  }

  parentOf(id: string): string | null | undefined {
    return this.entries.get(id)?.parent;
  }

  /** Ids of the pages under `parent` (null: the top level), in order. */
  children(parent: string | null): readonly string[] {
    return parent === null ? this.roots : (this.entries.get(parent)?.children ?? []);
  }

  /** Whether `id` is `ancestor` or lies somewhere below it. */
  isWithin(id: string, ancestor: string): boolean {
    let at: string | null | undefined = id;
    for (let steps = 0; at != null && steps <= this.entries.size; steps++) {
      if (at === ancestor) return true;
      at = this.entries.get(at)?.parent;
    }
    return false;
  }

  /**
   * Sets the page's fields and puts it under `parent` at `index` (clamped; its children stay
   * with it). The caller makes sure `parent` exists and is not inside the page.
   */
  put(id: string, fields: PageFields, parent: string | null, index: number): void {
    const entry = this.entries.get(id);
    if (entry) {
      entry.fields = fields;
      if (entry.parent === parent) return;
      const siblings = this.childrenOf(entry.parent);
      siblings.splice(siblings.indexOf(id), 1);
      entry.parent = parent;
    } else {
      this.entries.set(id, { fields, parent, children: [] });
    }
    const siblings = this.childrenOf(parent);
    siblings.splice(Math.max(0, Math.min(index, siblings.length)), 0, id);
  }

  setSlug(id: string, slug: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.fields = { ...entry.fields, slug };
  }

  toNodes(): PageNode[] {
    const build = (ids: readonly string[]): PageNode[] =>
      ids.map((id) => {
        const entry = this.entries.get(id)!;
        return { ...entry.fields, pages: build(entry.children) };
      });
    return build(this.roots);
  }

  private childrenOf(parent: string | null): string[] {
    return parent === null ? this.roots : this.entries.get(parent)!.children;
  }
}
