import { assertAdaptiveSchema, templateConditions } from './adaptive-schema';
import { assertCondition, unsignedClaimsFromQuery, visible } from './condition';
import { resolveAddress, segmentsOf, visibleStructure } from './site-address';
import { reorder } from './structure';
import type { StructureRows } from '../infrastructure/sites.repository';

const visitor = (claims: Record<string, unknown>, unsigned: Record<string, unknown> = {}) => ({ visitor: { claims: { ...claims, unsigned } } });

describe('conditions', () => {
  it('evaluate over visitor claims, strict operators read as jexl ones, errors and missing claims hide', () => {
    expect(visible('visitor.claims.unsigned.isBeta == true', visitor({}, { isBeta: true }))).toBe(true);
    expect(visible('visitor.claims.unsigned.isBeta === true', visitor({}, { isBeta: true }))).toBe(true);
    expect(visible('visitor.claims.plan !== "free"', visitor({ plan: 'pro' }))).toBe(true);
    expect(visible('visitor.claims.plan == "a === b"', visitor({ plan: 'a === b' }))).toBe(true);
    expect(visible('visitor.claims.unsigned.isBeta == true', visitor({}))).toBe(false);
    expect(visible('visitor.claims.a.b.c == 1', visitor({}))).toBe(false);
    expect(visible('danger(1)', visitor({}))).toBe(false);
    expect(visible(null, visitor({}))).toBe(true);
  });

  it('are parsed when saved: a syntax error is a 400', () => {
    expect(() => assertCondition('visitor.claims ==')).toThrow(/not a valid expression/);
    expect(() => assertCondition('x'.repeat(1025))).toThrow(/1024/);
    expect(() => assertCondition('  ')).toThrow(/empty/);
    expect(assertCondition('"beta" in visitor.claims.groups')).toBe('"beta" in visitor.claims.groups');
  });

  it('read unsigned claims from visitor.* query parameters, coerced, without prototype keys', () => {
    expect(unsignedClaimsFromQuery({ 'visitor.isBeta': 'true', 'visitor.a.b': '3', 'visitor.name': 'Ann', other: 'x', 'visitor.__proto__.x': '1' })).toEqual({
      isBeta: true,
      a: { b: 3 },
      name: 'Ann',
    });
  });
});

describe('adaptive schema', () => {
  const schema = {
    type: 'object',
    properties: {
      plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
      seats: { type: 'number', description: 'Seats' },
      unsigned: { type: 'object', properties: { isBeta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false },
    },
    additionalProperties: false,
  };

  it('accepts a draft-07 object schema of described claims and derives template conditions', () => {
    expect(assertAdaptiveSchema(schema)).toBe(schema);
    expect(templateConditions(schema)).toEqual([
      { description: 'Plan: free', condition: 'visitor.claims.plan == "free"' },
      { description: 'Plan: pro', condition: 'visitor.claims.plan == "pro"' },
      { description: 'Seats', condition: 'visitor.claims.seats > 0' },
      { description: 'Beta', condition: 'visitor.claims.unsigned.isBeta == true' },
    ]);
  });

  it('refuses what is not a valid draft-07 schema or not GitBook-shaped', () => {
    expect(() => assertAdaptiveSchema({ type: 'object', properties: { x: { type: 12 } }, additionalProperties: false })).toThrow(/JSON Schema/);
    expect(() => assertAdaptiveSchema({ type: 'object', properties: {}, additionalProperties: true })).toThrow();
    expect(() => assertAdaptiveSchema({ type: 'object', properties: { x: { type: 'boolean' } }, additionalProperties: false })).toThrow(/description/);
    expect(() => assertAdaptiveSchema([])).toThrow(/object/);
  });
});

describe('published addresses', () => {
  const row = <T>(value: T) => value as never;
  const rows: StructureRows = {
    sections: [
      row({ id: 'home', path: 'home', isDefault: true, condition: null, groupId: null, position: 0 }),
      row({ id: 'api', path: 'api', isDefault: false, condition: 'visitor.claims.dev == true', groupId: null, position: 1 }),
    ],
    groups: [],
    siteSpaces: [
      row({ id: 'v1', sectionId: 'home', spaceId: 's1', path: 'v1', isDefault: true, condition: null }),
      row({ id: 'v2', sectionId: 'home', spaceId: 's2', path: 'v2', isDefault: false, condition: null }),
      row({ id: 'ref', sectionId: 'api', spaceId: 's3', path: 'ref', isDefault: true, condition: null }),
    ],
    externalLinks: [
      row({ id: 'blog', groupId: null, draft: false, condition: null, position: 2 }),
      row({ id: 'soon', groupId: null, draft: true, condition: null, position: 3 }),
      row({ id: 'status', groupId: null, draft: false, condition: 'visitor.claims.dev == true', position: 4 }),
    ],
  };
  const live = new Set(['s1', 's2', 's3']);

  it('selects section and variant from the first segments, defaults otherwise', () => {
    const dev = visibleStructure(rows, visitor({ dev: true }), live);
    expect(resolveAddress(dev, ['api', 'pets', 'list'])).toMatchObject({ sectionId: 'api', siteSpaceId: 'ref', pagePath: 'pets/list', segments: ['api'] });
    expect(resolveAddress(dev, ['v2', 'intro'])).toMatchObject({ sectionId: 'home', siteSpaceId: 'v2', pagePath: 'intro', segments: ['v2'] });
    expect(resolveAddress(dev, ['intro'])).toMatchObject({ siteSpaceId: 'v1', pagePath: 'intro', segments: [] });
    expect(segmentsOf(dev, 'api', 'ref')).toEqual(['api']);
    expect(segmentsOf(dev, 'home', 'v2')).toEqual(['v2']);
  });

  it('hides sections whose condition fails and site spaces of deleted spaces', () => {
    const reader = visibleStructure(rows, visitor({}), new Set(['s1', 's3']));
    expect(reader.sections.map((s) => s.id)).toEqual(['home']);
    expect(reader.siteSpaces.map((s) => s.id)).toEqual(['v1']);
    expect(resolveAddress(reader, ['api', 'x'])).toMatchObject({ sectionId: 'home', pagePath: 'api/x' });
  });

  it('leaves out draft external links and those whose condition fails', () => {
    expect(visibleStructure(rows, visitor({}), live).externalLinks.map((l) => l.id)).toEqual(['blog']);
    expect(visibleStructure(rows, visitor({ dev: true }), live).externalLinks.map((l) => l.id)).toEqual(['blog', 'status']);
  });
});

describe('structure order', () => {
  const items = () => ['a', 'b', 'c'].map((id, position) => ({ id, position }));
  it('moves before or after a sibling and renumbers; foreign or contradictory pointers are refused', () => {
    const list = items();
    expect(reorder(list, list[2], { before: { type: 'site-section', id: 'a' } }, new Set(['a', 'b', 'c'])).map((i) => `${i.id}${i.position}`)).toEqual(['c0', 'a1', 'b2']);
    const again = items();
    expect(reorder(again, again[0], undefined, new Set(['a', 'b', 'c'])).map((i) => i.id)).toEqual(['b', 'c', 'a']);
    const third = items();
    expect(() => reorder(third, third[0], { after: { type: 'site-section', id: 'z' } }, new Set(['a', 'b', 'c']))).toThrow(/same level/);
    expect(() => reorder(third, third[0], { before: { type: 'site-section', id: 'b' }, after: { type: 'site-section', id: 'c' } }, new Set(['a', 'b', 'c']))).toThrow(/adjacent/);
  });
});
