/**
 * Property tests of mergeRevisionContent against a small model of a space: a random base tree
 * (1..30 pages with multi-line bodies), and random edit sets (titles, slugs, body line edits,
 * additions, deletions, moves, variables) applied to it by two sides.
 *
 * Edits are generated from random numbers and interpreted against the sides' states, so every
 * generated edit is valid. For the "disjoint" properties, each edit claims tokens (a page's
 * fields, a gap range of a page's base lines, insertions into a page's children list...), the
 * second side may not take what the first side claimed, and each of its edits must also apply
 * after the first side's edits: that is what "the two edit sets are independent" means here.
 * Insertions into one children list are one side's (diff3 resolves two sides' insertions at
 * the same place by a rule, not by the order of application); removals from it are free.
 * Two cases that snapshots cannot tell apart are left out: deleting inside a subtree that the
 * other side moved, and changing pages before deleting an ancestor the other side moved them
 * out of (both look like "deleted the ancestor only", which the merge assumes).
 */
import fc from 'fast-check';
import { documentHash } from '../../../content/domain/document-hash';
import type { PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { mergeRevisionContent, RevisionMergeResult } from './merge-revision-content';
import { resolveConflictsForUpdate } from './resolve-conflicts';

const T_BASE = '2024-01-01T00:00:00.000Z';
const T_NOW = '2024-06-01T00:00:00.000Z';
const RUNS = 150;

interface ModelPage {
  id: string;
  kind: 'document' | 'group';
  title: string;
  slug: string;
  /** Body lines (the markdown is the lines joined by "\n", plus a final newline); none for groups. */
  lines?: string[];
  parent: string | null;
  createdAt: string;
  updatedAt: string;
}

class Model {
  readonly pages = new Map<string, ModelPage>();
  readonly children = new Map<string | null, string[]>();
  readonly variables = new Map<string, string>();

  clone(): Model {
    const copy = new Model();
    for (const [id, page] of this.pages) copy.pages.set(id, { ...page, lines: page.lines && [...page.lines] });
    for (const [parent, ids] of this.children) copy.children.set(parent, [...ids]);
    for (const [key, value] of this.variables) copy.variables.set(key, value);
    return copy;
  }

  list(parent: string | null): string[] {
    let ids = this.children.get(parent);
    if (!ids) this.children.set(parent, (ids = []));
    return ids;
  }

  subtree(id: string): string[] {
    const out = [id];
    for (let i = 0; i < out.length; i++) out.push(...this.list(out[i]));
    return out;
  }

  insert(id: string, parent: string | null, after: string | null): void {
    const ids = this.list(parent);
    ids.splice(after === null ? 0 : ids.indexOf(after) + 1, 0, id);
  }

  detach(id: string): void {
    const ids = this.list(this.pages.get(id)!.parent);
    ids.splice(ids.indexOf(id), 1);
  }

  toContent(): { content: RevisionContent; documents: Map<string, string> } {
    const documents = new Map<string, string>();
    const build = (parent: string | null): PageNode[] =>
      this.list(parent).map((id) => {
        const { kind, title, slug, lines, createdAt, updatedAt } = this.pages.get(id)!;
        const node: PageNode = { id, kind, title, slug, createdAt, updatedAt, pages: build(id) };
        if (lines) {
          const text = lines.join('\n') + '\n';
          node.documentHash = documentHash(text);
          documents.set(node.documentHash, text);
        }
        return node;
      });
    const content: RevisionContent = { pages: build(null), files: [], variables: Object.fromEntries(this.variables), reusableContents: [] };
    return { content, documents };
  }
}

const baseLine = (id: string, index: number) => `${id} line ${index}`;

const baseArb = fc.array(fc.record({ parent: fc.nat(), lines: fc.integer({ min: 2, max: 7 }), group: fc.integer({ min: 0, max: 9 }) }), {
  minLength: 1,
  maxLength: 30,
});

function buildBase(spec: Array<{ parent: number; lines: number; group: number }>): Model {
  const model = new Model();
  spec.forEach((item, i) => {
    const id = `p${i}`;
    const choice = item.parent % (i + 1);
    const parent = choice === 0 ? null : `p${choice - 1}`;
    const group = item.group === 0;
    model.pages.set(id, {
      id,
      kind: group ? 'group' : 'document',
      title: `Page ${i}`,
      slug: `page-${i}`,
      lines: group ? undefined : Array.from({ length: item.lines }, (_, j) => baseLine(id, j)),
      parent,
      createdAt: T_BASE,
      updatedAt: T_BASE,
    });
    model.insert(id, parent, model.list(parent).at(-1) ?? null);
  });
  model.variables.set('v0', 'zero');
  model.variables.set('v1', 'one');
  return model;
}

interface OpSeed {
  op: number;
  a: number;
  b: number;
  c: number;
}
const opsArb = fc.array(
  fc.record({ op: fc.integer({ min: 0, max: 7 }), a: fc.nat(10_000), b: fc.nat(10_000), c: fc.nat(10_000) }),
  { maxLength: 8 },
);

/** One side being generated. */
interface Side {
  name: 'A' | 'B';
  time: string;
  base: Model;
  /** The states every edit applies to: the side's own, and (second side) the first side's result. */
  states: Model[];
  /** Tokens this side claimed. */
  own: Set<string>;
  /** Tokens the other side claimed (disjoint generation), or null (free generation: anything goes). */
  other: Set<string> | null;
  /** Pages this side changed (fields, body, children). */
  edited: Set<string>;
  counter: number;
}

/** Whether `mine` takes anything of `theirs`: equal tokens, or a whole body against some lines of it. */
function clashes(mine: string[], theirs: Set<string>): boolean {
  return mine.some((token) => {
    if (token.startsWith('lines:')) return theirs.has(`whole:${token.slice(6)}`);
    if (token.startsWith('whole:') && theirs.has(`lines:${token.slice(6)}`)) return true;
    return theirs.has(token);
  });
}

function claim(side: Side, tokens: string[]): boolean {
  if (side.other && clashes(tokens, side.other)) return false;
  if (tokens.some((token) => token.startsWith('gap:') && side.own.has(token))) return false;
  for (const token of tokens) side.own.add(token);
  return true;
}

const pick = <T>(items: T[], seed: number): T | undefined => (items.length === 0 ? undefined : items[seed % items.length]);
const inAll = (side: Side, id: string | null) => id === null || side.states.every((state) => state.pages.has(id));
const listKey = (parent: string | null) => `list:${parent ?? '/'}`;

function applyOp(side: Side, seed: OpSeed): void {
  const free = side.other === null;
  const own = side.states[0];
  const ids = [...own.pages.keys()];
  const tag = () => `${side.name}${side.counter++}`;
  switch (seed.op) {
    case 0:
    case 1: {
      // title or slug
      const id = pick(ids, seed.a);
      if (!id || !inAll(side, id) || !claim(side, [`meta:${id}`])) return;
      const field = seed.op === 0 ? 'title' : 'slug';
      const value = free ? `${field}-${seed.c % 3}` : `${field} ${tag()}`;
      for (const state of side.states) Object.assign(state.pages.get(id)!, { [field]: value, updatedAt: side.time });
      side.edited.add(id);
      return;
    }
    case 2: {
      // replace the base lines [start, end) of a body by 0..2 new lines (at least one when inserting)
      const id = pick(
        ids.filter((candidate) => side.base.pages.get(candidate)?.lines && inAll(side, candidate)),
        seed.a,
      );
      if (!id) return;
      const count = side.base.pages.get(id)!.lines!.length;
      const start = seed.a % (count + 1);
      const end = start + (seed.b % (Math.min(2, count - start) + 1));
      const gaps = Array.from({ length: end - start + 1 }, (_, k) => `gap:${id}:${start + k}`);
      if (!claim(side, [`lines:${id}`, ...gaps])) return;
      const added = Math.max(seed.c % 3, start === end ? 1 : 0);
      const lines = Array.from({ length: added }, (_, k) => (free ? `x${(seed.c + k) % 3}` : `${id} ${tag()}`));
      for (const state of side.states) {
        const body = state.pages.get(id)!;
        const at = start < count ? body.lines!.indexOf(baseLine(id, start)) : body.lines!.indexOf(baseLine(id, count - 1)) + 1;
        if (at < 0) throw new Error('model: anchor line missing');
        body.lines!.splice(at, end - start, ...lines);
        body.updatedAt = side.time;
      }
      side.edited.add(id);
      return;
    }
    case 3: {
      // add a page under a parent, after a sibling (or first)
      const parent = pick<string | null>([null, ...ids], seed.a);
      if (parent === undefined || !inAll(side, parent)) return;
      const siblings = own.list(parent);
      const after = (seed.b % (siblings.length + 1)) - 1 < 0 ? null : siblings[(seed.b % (siblings.length + 1)) - 1];
      if (after !== null && !side.states.every((state) => state.list(parent).includes(after))) return;
      if (!claim(side, [listKey(parent)])) return;
      if (parent !== null) side.edited.add(parent);
      const id = free ? `n${side.counter++}` : `n${tag()}`;
      for (const state of side.states) {
        state.pages.set(id, {
          id,
          kind: 'document',
          title: free ? `title-${seed.c % 3}` : `New ${id}`,
          slug: free ? `slug-${seed.c % 3}` : `slug-${id}`,
          lines: Array.from({ length: 1 + (seed.c % 3) }, (_, k) => `${id} body ${k}`),
          parent,
          createdAt: side.time,
          updatedAt: side.time,
        });
        state.insert(id, parent, after);
      }
      return;
    }
    case 4: {
      // delete a page and its subtree (the subtree as it is after both sides' edits)
      const id = pick(ids, seed.a);
      if (!id || !inAll(side, id)) return;
      const last = side.states[side.states.length - 1];
      const doomed = last.subtree(id);
      // Pages the other side moved out of the subtree survive; with snapshots only, this side's
      // own changes to them would look deleted, so it must not have made any.
      if (own.subtree(id).some((q) => !doomed.includes(q) && side.edited.has(q))) return;
      // `moved:`: no deleting inside a subtree the other side moved (with snapshots only, "deleted
      // p6, then its old ancestor p3" looks like "deleted p3" once the other side moved p6 out).
      if (!claim(side, doomed.flatMap((q) => [`meta:${q}`, `whole:${q}`, listKey(q), `moved:${q}`]))) return;
      for (const state of side.states) {
        const subtree = state.subtree(id);
        state.detach(id);
        for (const q of subtree) {
          state.pages.delete(q);
          state.children.delete(q);
        }
      }
      return;
    }
    case 5: {
      // move a page under another parent (or the same: reorder), after a sibling (or first)
      const id = pick(ids, seed.a);
      if (!id || !inAll(side, id)) return;
      const parent = pick<string | null>([null, ...ids], seed.b);
      if (parent === undefined || !inAll(side, parent)) return;
      if (parent !== null && side.states.some((state) => state.subtree(id).includes(parent))) return;
      const siblings = own.list(parent).filter((sibling) => sibling !== id);
      const index = (seed.c % (siblings.length + 1)) - 1;
      const after = index < 0 ? null : siblings[index];
      if (after !== null && !side.states.every((state) => state.list(parent).includes(after))) return;
      if (!claim(side, [`meta:${id}`, listKey(parent), ...own.subtree(id).map((q) => `moved:${q}`)])) return;
      for (const state of side.states) {
        state.detach(id);
        state.insert(id, parent, after);
        Object.assign(state.pages.get(id)!, { parent, updatedAt: side.time });
      }
      side.edited.add(id);
      if (parent !== null) side.edited.add(parent);
      return;
    }
    case 6:
    case 7: {
      // set or delete a variable
      const key = `v${seed.a % 3}`;
      if (seed.op === 7 && !side.states.every((state) => state.variables.has(key))) return;
      if (!claim(side, [`var:${key}`])) return;
      const value = free ? `value-${seed.c % 2}` : `${side.name} ${tag()}`;
      for (const state of side.states) {
        if (seed.op === 6) state.variables.set(key, value);
        else state.variables.delete(key);
      }
      return;
    }
  }
}

function run(side: Side, seeds: OpSeed[]): void {
  for (const seed of seeds) applyOp(side, seed);
}

interface Scenario {
  base: Model;
  a: Model;
  b: Model;
  /** A's edits then B's edits (disjoint scenarios only). */
  ab: Model;
}

/**
 * Two edit sets that do not touch the same things; `reserved` tokens are claimed by neither
 * side, `kept` pages are deleted by neither side.
 */
function disjointScenario(base: Model, seedsA: OpSeed[], seedsB: OpSeed[], reserved: string[] = [], kept: string[] = []): Scenario {
  const claimedA = new Set<string>(reserved);
  const claimedB = new Set<string>(reserved);
  const a = base.clone();
  run({ name: 'A', time: '2024-02-01T00:00:00.000Z', base, states: [a], own: claimedA, other: new Set(reserved), edited: new Set(kept), counter: 0 }, seedsA);
  const b = base.clone();
  const ab = a.clone();
  run({ name: 'B', time: '2024-03-01T00:00:00.000Z', base, states: [b, ab], own: claimedB, other: claimedA, edited: new Set(kept), counter: 0 }, seedsB);
  return { base, a, b, ab };
}

/** Two edit sets made independently, with small value pools so that they often collide. */
function freeSide(base: Model, seeds: OpSeed[], name: 'A' | 'B', time: string): Model {
  const state = base.clone();
  run({ name, time, base, states: [state], own: new Set(), other: null, edited: new Set(), counter: 0 }, seeds);
  return state;
}

function mergeModels(base: Model, ours: Model, theirs: Model) {
  const b = base.toContent();
  const o = ours.toContent();
  const t = theirs.toContent();
  const documents = new Map([...b.documents, ...o.documents, ...t.documents]);
  return { result: mergeRevisionContent(b.content, o.content, t.content, documents, T_NOW), documents, ours: o, theirs: t };
}

function expectMergedAs(result: RevisionMergeResult, expected: Model, documents: Map<string, string>): void {
  if (!result.ok) throw new Error(`unexpected conflicts: ${JSON.stringify(result.conflicts)}`);
  const want = expected.toContent();
  expect(result.content).toEqual(want.content);
  for (const [hash, text] of result.newDocuments) {
    expect(documentHash(text)).toBe(hash);
    expect(documents.has(hash)).toBe(false);
  }
  // every document of the result can be read, and reads as expected
  for (const [hash, text] of want.documents) expect(documents.get(hash) ?? result.newDocuments.get(hash)).toBe(text);
}

describe('mergeRevisionContent (properties)', () => {
  it('merges disjoint edit sets cleanly, as if applying one after the other, in either order', () => {
    fc.assert(
      fc.property(baseArb, opsArb, opsArb, (spec, seedsA, seedsB) => {
        const { base, a, b, ab } = disjointScenario(buildBase(spec), seedsA, seedsB);
        const forward = mergeModels(base, a, b);
        expectMergedAs(forward.result, ab, forward.documents);
        const backward = mergeModels(base, b, a);
        expect(backward.result).toEqual(forward.result);
      }),
      { numRuns: RUNS },
    );
  });

  it('merges disjoint line ranges of the same pages cleanly', () => {
    // only body edits: both sides edit the same few pages, in separate, non-adjacent line ranges
    const bodyOps = fc.array(
      fc.record({ op: fc.constant(2), a: fc.nat(10_000), b: fc.nat(10_000), c: fc.nat(10_000) }),
      { minLength: 1, maxLength: 6 },
    );
    const fewPages = fc.array(fc.record({ parent: fc.nat(), lines: fc.integer({ min: 4, max: 12 }), group: fc.constant(1) }), {
      minLength: 1,
      maxLength: 3,
    });
    fc.assert(
      fc.property(fewPages, bodyOps, bodyOps, (spec, seedsA, seedsB) => {
        const { base, a, b, ab } = disjointScenario(buildBase(spec), seedsA, seedsB);
        const { result, documents } = mergeModels(base, a, b);
        expectMergedAs(result, ab, documents);
        expect(mergeModels(base, b, a).result).toEqual(result);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps pages one side moved out of subtrees the other side deleted', () => {
    // A moves (and edits) pages, B deletes subtrees: what A moved out survives at its new place
    const seeds = (ops: number[]) =>
      fc.array(fc.record({ op: fc.constantFrom(...ops), a: fc.nat(10_000), b: fc.nat(10_000), c: fc.nat(10_000) }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(baseArb, seeds([5, 5, 0, 2, 3]), seeds([4]), (spec, seedsA, seedsB) => {
        const { base, a, b, ab } = disjointScenario(buildBase(spec), seedsA, seedsB);
        const { result, documents } = mergeModels(base, a, b);
        expectMergedAs(result, ab, documents);
        expect(mergeModels(base, b, a).result).toEqual(result);
      }),
      { numRuns: RUNS },
    );
  });

  it('gives the same result whichever side is ours, for any edits (conflicting or not)', () => {
    fc.assert(
      fc.property(baseArb, opsArb, opsArb, (spec, seedsA, seedsB) => {
        const base = buildBase(spec);
        const a = freeSide(base, seedsA, 'A', '2024-02-01T00:00:00.000Z');
        const b = freeSide(base, seedsB, 'B', '2024-03-01T00:00:00.000Z');
        expect(mergeModels(base, b, a).result).toEqual(mergeModels(base, a, b).result);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('returns the changed side when the other side is the base', () => {
    fc.assert(
      fc.property(baseArb, opsArb, (spec, seeds) => {
        const base = buildBase(spec);
        const x = freeSide(base, seeds, 'A', '2024-02-01T00:00:00.000Z');
        const { content } = x.toContent();
        for (const { result } of [mergeModels(base, x, base), mergeModels(base, base, x)]) {
          expect(result).toEqual({ ok: true, content, newDocuments: new Map() });
        }
        expect(mergeModels(x, x, x).result).toEqual({ ok: true, content, newDocuments: new Map() });
      }),
      { numRuns: RUNS },
    );
  });

  it('conflicts, naming the page, when both sides change the same field or the same lines differently', () => {
    const overlapArb = fc.record({ which: fc.nat(), title: fc.boolean(), s1: fc.nat(), l1: fc.nat(), s2: fc.nat(), l2: fc.nat(), k1: fc.nat(2) });
    fc.assert(
      fc.property(baseArb, opsArb, opsArb, overlapArb, (spec, seedsA, seedsB, overlap) => {
        const start = buildBase(spec);
        const documentsPages = [...start.pages.values()].filter((p) => p.lines);
        const target = overlap.title || documentsPages.length === 0 ? pick([...start.pages.values()], overlap.which)! : pick(documentsPages, overlap.which)!;
        const id = target.id;
        // other random edits, none of which touches the target page
        const count = target.lines?.length ?? 0;
        const reserved = [`meta:${id}`, `whole:${id}`, `lines:${id}`, ...Array.from({ length: count + 1 }, (_, k) => `gap:${id}:${k}`)];
        const { base, a, b } = disjointScenario(start, seedsA, seedsB, reserved, [id]);
        if (overlap.title || !target.lines) {
          a.pages.get(id)!.title = 'A title';
          b.pages.get(id)!.title = 'B title';
        } else {
          // A replaces [s1, e1) (or inserts at s1); B replaces a range sharing a line with it, or
          // inserts at the same place, or replaces the lines around A's insertion point
          const s1 = overlap.s1 % (count + 1);
          const e1 = Math.min(count, s1 + (overlap.l1 % 3));
          let s2: number;
          let e2: number;
          if (s1 < e1) {
            const shared = s1 + (overlap.s2 % (e1 - s1));
            s2 = Math.max(0, shared - (overlap.l2 % 2));
            e2 = Math.min(count, shared + 1 + (Math.floor(overlap.l2 / 2) % 2));
          } else if (overlap.s2 % 2 === 0 || s1 === 0 || s1 === count) {
            s2 = e2 = s1;
          } else {
            s2 = s1 - 1;
            e2 = s1 + 1;
          }
          const replace = (model: Model, s: number, e: number, lines: string[]) => {
            const body = model.pages.get(id)!.lines!;
            const at = s < count ? body.indexOf(baseLine(id, s)) : body.length;
            body.splice(at, e - s, ...lines);
          };
          const aLines = Array.from({ length: s1 === e1 ? 1 + (overlap.k1 % 2) : overlap.k1 }, (_, k) => `A ${k}`);
          replace(a, s1, e1, aLines);
          replace(b, s2, e2, ['B 0']);
        }
        const { result } = mergeModels(base, a, b);
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.conflicts).toContainEqual(
            expect.objectContaining({ item: 'page', id, title: target.title, reason: overlap.title || !target.lines ? 'title' : 'content' }),
          );
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('an update settles any two edit sets: a valid tree keeping what the change request added or changed', () => {
    fc.assert(
      fc.property(baseArb, opsArb, opsArb, (spec, seedsA, seedsB) => {
        const base = buildBase(spec);
        const changeRequest = freeSide(base, seedsA, 'A', '2024-02-01T00:00:00.000Z');
        const space = freeSide(base, seedsB, 'B', '2024-03-01T00:00:00.000Z');
        const { result: plain, documents, ours, theirs } = mergeModels(base, changeRequest, space);
        const resolved = resolveConflictsForUpdate(base.toContent().content, ours.content, theirs.content, documents, T_NOW);
        if (!resolved.ok) throw new Error(`not settled: ${JSON.stringify(resolved.conflicts)}`);
        if (plain.ok) {
          expect(resolved.content).toEqual(plain.content);
          expect(resolved.pages).toEqual([]);
          return;
        }
        expect(resolved.pages.length + resolved.items.length).toBeGreaterThan(0);
        const ids = new Set<string>();
        const walk = (nodes: PageNode[]) => {
          const slugs = new Set<string>();
          for (const node of nodes) {
            expect(ids.has(node.id)).toBe(false);
            ids.add(node.id);
            expect(slugs.has(node.slug)).toBe(false);
            slugs.add(node.slug);
            walk(node.pages);
          }
        };
        walk(resolved.content.pages);
        // what the change request added or changed survives (unchanged pages may go with a deletion by the space)
        const essence = (page: ModelPage | undefined) => page && JSON.stringify([page.kind, page.title, page.slug, page.lines, page.parent]);
        for (const [id, page] of changeRequest.pages) {
          if (essence(page) !== essence(base.pages.get(id))) expect(ids.has(id)).toBe(true);
        }
        for (const { id } of resolved.pages) expect(ids.has(id)).toBe(true);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
