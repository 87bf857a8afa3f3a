import { InvalidError } from '@app/common';

/**
 * Rich text as GitBook's API carries it (`JSONDocument`): a document of blocks, blocks of
 * inlines and texts, texts of leaves with marks. Used for the organization's agent instructions.
 *
 * The parser accepts the subset of GitBook's document schema that makes sense for plain written
 * instructions, exactly as the contract defines each node (so whatever is stored is answered back
 * contract-valid):
 *
 * - blocks: paragraph, heading-1/2/3, list-ordered, list-unordered, list-tasks, list-item,
 *   divider, blockquote, hint, code, code-line, math;
 * - inlines: link (to a URL only), emoji, inline-math; texts with leaves and the marks bold,
 *   italic, code, keyboard, strikethrough, superscript, subscript.
 *
 * Anything else (unknown node types, unknown properties, children a node may not hold, data
 * fields of the wrong type) is a 400 naming the path of the offending node. Limits keep a
 * document cheap to store and render: RICH_TEXT_LIMITS.
 */
export interface RichTextDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: RichTextNode[];
}

/** A block, inline, text, leaf or mark, already validated. */
export type RichTextNode = Record<string, unknown>;

export const RICH_TEXT_LIMITS = {
  /** Nesting of blocks and inlines under the document (a list in a list in a quote...). */
  maxDepth: 16,
  /** Blocks, inlines, texts, leaves and marks together. */
  maxNodes: 10_000,
  /** Characters of text in all leaves, formulas and emoji codes together. */
  maxTextLength: 200_000,
  /** A node's `key`. */
  maxKeyLength: 64,
  /** JSON size of the document's own `data` (free-form besides `schemaVersion`). */
  maxDocumentDataBytes: 4096,
  /** Any string inside a node's `data` (URLs, code syntax, titles, heading ids). */
  maxDataStringLength: 2048,
};

type FieldCheck = (value: unknown) => string | null;

const isString: FieldCheck = (v) =>
  typeof v !== 'string' ? 'must be a string' : v.length > RICH_TEXT_LIMITS.maxDataStringLength ? `must be at most ${RICH_TEXT_LIMITS.maxDataStringLength} characters` : null;
const isBoolean: FieldCheck = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');
const isInteger = (min?: number): FieldCheck => (v) =>
  typeof v !== 'number' || !Number.isInteger(v) ? 'must be an integer' : min !== undefined && v < min ? `must be at least ${min}` : null;
const oneOf = (...values: string[]): FieldCheck => (v) =>
  typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.map((x) => `"${x}"`).join(', ')}`;
const matches = (pattern: RegExp): FieldCheck => (v) => isString(v) ?? (pattern.test(v as string) ? null : `must match ${pattern}`);

interface DataRule {
  /** Whether the node must carry `data` (the contract requires it on some nodes). */
  required: boolean;
  fields: Record<string, FieldCheck>;
  requiredFields?: string[];
}

type Children =
  /** Inline content: texts and inlines. */
  | { kind: 'inline' }
  /** Texts only (code lines). */
  | { kind: 'text' }
  /** These block types. */
  | { kind: 'blocks'; types: readonly string[] }
  /** A void node: no children. */
  | { kind: 'void' };

interface NodeRule {
  children: Children;
  data: DataRule;
}

const ALIGN = oneOf('start', 'center', 'end');
const NO_DATA: DataRule = { required: false, fields: {} };

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'] as const;
const TOP_LEVEL = [...ESSENTIALS, 'blockquote', 'hint', 'code', 'math'] as const;

const heading: NodeRule = { children: { kind: 'inline' }, data: { required: true, fields: { id: matches(/^[-a-z0-9.+_]+$/), align: ALIGN } } };

const BLOCKS: Record<string, NodeRule> = {
  paragraph: { children: { kind: 'inline' }, data: { required: false, fields: { align: ALIGN } } },
  'heading-1': heading,
  'heading-2': heading,
  'heading-3': heading,
  'list-ordered': { children: { kind: 'blocks', types: ['list-item'] }, data: { required: true, fields: { start: isInteger(0) } } },
  'list-unordered': { children: { kind: 'blocks', types: ['list-item'] }, data: NO_DATA },
  'list-tasks': { children: { kind: 'blocks', types: ['list-item'] }, data: NO_DATA },
  'list-item': {
    children: { kind: 'blocks', types: [...ESSENTIALS, 'code', 'hint', 'blockquote', 'math'] },
    data: { required: false, fields: { checked: isBoolean } },
  },
  divider: { children: { kind: 'void' }, data: { required: true, fields: {} } },
  blockquote: { children: { kind: 'blocks', types: [...ESSENTIALS, 'blockquote'] }, data: NO_DATA },
  hint: {
    children: { kind: 'blocks', types: ESSENTIALS },
    data: { required: true, fields: { style: oneOf('info', 'warning', 'danger', 'success') }, requiredFields: ['style'] },
  },
  code: {
    children: { kind: 'blocks', types: ['code-line'] },
    data: {
      required: true,
      fields: {
        syntax: isString,
        title: isString,
        overflow: oneOf('scroll', 'wrap'),
        lineNumbers: isBoolean,
        fullWidth: isBoolean,
        expandable: isBoolean,
        collapsedLineCount: isInteger(1),
      },
    },
  },
  'code-line': { children: { kind: 'text' }, data: { required: true, fields: { highlighted: isBoolean } } },
  math: { children: { kind: 'void' }, data: { required: true, fields: { formula: isString }, requiredFields: ['formula'] } },
};

const INLINES: Record<string, NodeRule> = {
  link: { children: { kind: 'text' }, data: { required: true, fields: { ref: checkUrlRef }, requiredFields: ['ref'] } },
  emoji: { children: { kind: 'void' }, data: { required: true, fields: { code: isString }, requiredFields: ['code'] } },
  'inline-math': { children: { kind: 'void' }, data: { required: true, fields: { formula: isString }, requiredFields: ['formula'] } },
};

const MARKS = new Set(['bold', 'italic', 'code', 'keyboard', 'strikethrough', 'superscript', 'subscript']);

/** Links point to absolute http(s) or mailto URLs: `{kind: 'url', url}`. */
function checkUrlRef(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object {kind: "url", url}';
  const extra = Object.keys(value).filter((k) => k !== 'kind' && k !== 'url');
  if (value.kind !== 'url' || extra.length > 0) return 'must be {kind: "url", url}; links to other content are not supported here';
  const problem = isString(value.url);
  if (problem) return `url ${problem}`;
  try {
    const protocol = new URL(value.url as string).protocol;
    if (!['http:', 'https:', 'mailto:'].includes(protocol)) return 'url must be an http(s) or mailto URL';
  } catch {
    return 'url must be an absolute URL';
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Walker {
  private nodes = 0;
  private text = 0;

  constructor(private readonly root: string) {}

  fail(path: string, message: string): never {
    throw new InvalidError(`${path}: ${message}`);
  }

  document(value: unknown): RichTextDocument {
    const path = this.root;
    if (!isPlainObject(value)) this.fail(path, 'must be a document object {object: "document", data, nodes}');
    this.onlyKeys(value, path, ['object', 'data', 'nodes']);
    if (value.object !== 'document') this.fail(`${path}.object`, 'must be "document"');
    if (!isPlainObject(value.data)) this.fail(`${path}.data`, 'must be an object');
    const data = value.data;
    if (data.schemaVersion !== undefined) {
      const problem = isInteger(0)(data.schemaVersion);
      if (problem) this.fail(`${path}.data.schemaVersion`, problem);
    }
    let json: string;
    try {
      json = JSON.stringify(data);
    } catch {
      return this.fail(`${path}.data`, 'must be plain JSON of reasonable depth');
    }
    if (json.length > RICH_TEXT_LIMITS.maxDocumentDataBytes) {
      this.fail(`${path}.data`, `must be at most ${RICH_TEXT_LIMITS.maxDocumentDataBytes} bytes of JSON`);
    }
    const nodes = this.array(value.nodes, `${path}.nodes`).map((node, i) => this.block(node, `${path}.nodes[${i}]`, TOP_LEVEL, 1));
    return { object: 'document', data: JSON.parse(json) as Record<string, unknown>, nodes };
  }

  private block(value: unknown, path: string, allowed: readonly string[], depth: number): RichTextNode {
    if (!isPlainObject(value) || value.object !== 'block') this.fail(path, `must be a block {object: "block", type, nodes}`);
    const type = value.type;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      this.fail(`${path}.type`, `must be one of ${allowed.map((t) => `"${t}"`).join(', ')} here; got ${JSON.stringify(type)}`);
    }
    return this.element(value, path, BLOCKS[type], depth);
  }

  private inline(value: Record<string, unknown>, path: string, depth: number): RichTextNode {
    const type = value.type;
    if (typeof type !== 'string' || !Object.hasOwn(INLINES, type)) {
      this.fail(`${path}.type`, `must be one of ${Object.keys(INLINES).map((t) => `"${t}"`).join(', ')}; got ${JSON.stringify(type)}`);
    }
    return this.element(value, path, INLINES[type], depth);
  }

  /** A block or an inline: key, isVoid, data and children per its rule. */
  private element(value: Record<string, unknown>, path: string, rule: NodeRule, depth: number): RichTextNode {
    this.count(path);
    if (depth > RICH_TEXT_LIMITS.maxDepth) this.fail(path, `nesting deeper than ${RICH_TEXT_LIMITS.maxDepth} levels`);
    const isVoid = rule.children.kind === 'void';
    this.onlyKeys(value, path, isVoid ? ['object', 'type', 'key', 'isVoid', 'data'] : ['object', 'type', 'key', 'isVoid', 'data', 'nodes']);
    const out: RichTextNode = { object: value.object, type: value.type };
    this.key(value, path, out);
    if (isVoid) {
      if (value.isVoid !== true) this.fail(`${path}.isVoid`, 'must be true for this node type');
      out.isVoid = true;
    } else if (value.isVoid !== undefined) {
      if (value.isVoid !== false) this.fail(`${path}.isVoid`, 'must be false for this node type');
      out.isVoid = false;
    }
    const data = this.data(value.data, `${path}.data`, rule.data);
    if (data) out.data = data;
    if (!isVoid) out.nodes = this.children(value.nodes, `${path}.nodes`, rule.children, depth);
    return out;
  }

  private children(value: unknown, path: string, children: Children, depth: number): RichTextNode[] {
    const items = this.array(value, path);
    return items.map((child, i) => {
      const at = `${path}[${i}]`;
      if (children.kind === 'blocks') return this.block(child, at, children.types, depth + 1);
      if (isPlainObject(child) && child.object === 'text') return this.textNode(child, at);
      if (children.kind === 'inline' && isPlainObject(child) && child.object === 'inline') return this.inline(child, at, depth + 1);
      return this.fail(at, children.kind === 'inline' ? 'must be a text {object: "text", leaves} or an inline {object: "inline", type}' : 'must be a text {object: "text", leaves}');
    });
  }

  private data(value: unknown, path: string, rule: DataRule): Record<string, unknown> | undefined {
    if (value === undefined) {
      if (rule.required) this.fail(path, 'is required for this node type');
      return undefined;
    }
    if (!isPlainObject(value)) this.fail(path, 'must be an object');
    const out: Record<string, unknown> = {};
    for (const [field, fieldValue] of Object.entries(value)) {
      const check = Object.hasOwn(rule.fields, field) ? rule.fields[field] : undefined;
      if (!check) this.fail(`${path}.${field}`, 'is not a known property of this node type');
      const problem = check(fieldValue);
      if (problem) this.fail(`${path}.${field}`, problem);
      if (typeof fieldValue === 'string') this.addText(fieldValue, `${path}.${field}`);
      out[field] = isPlainObject(fieldValue) ? { ...fieldValue } : fieldValue;
    }
    for (const field of rule.requiredFields ?? []) {
      if (value[field] === undefined) this.fail(`${path}.${field}`, 'is required');
    }
    return out;
  }

  private textNode(value: Record<string, unknown>, path: string): RichTextNode {
    this.count(path);
    this.onlyKeys(value, path, ['object', 'key', 'leaves']);
    const out: RichTextNode = { object: 'text' };
    this.key(value, path, out);
    out.leaves = this.array(value.leaves, `${path}.leaves`).map((leaf, i) => this.leaf(leaf, `${path}.leaves[${i}]`));
    return out;
  }

  private leaf(value: unknown, path: string): RichTextNode {
    this.count(path);
    if (!isPlainObject(value) || value.object !== 'leaf') this.fail(path, 'must be a leaf {object: "leaf", text, marks}');
    this.onlyKeys(value, path, ['object', 'text', 'marks']);
    if (typeof value.text !== 'string') this.fail(`${path}.text`, 'must be a string');
    this.addText(value.text, `${path}.text`);
    const marks = this.array(value.marks, `${path}.marks`).map((mark, i) => {
      const at = `${path}.marks[${i}]`;
      this.count(at);
      if (!isPlainObject(mark) || mark.object !== 'mark') this.fail(at, 'must be a mark {object: "mark", type}');
      this.onlyKeys(mark, at, ['object', 'type']);
      if (typeof mark.type !== 'string' || !MARKS.has(mark.type)) {
        this.fail(`${at}.type`, `must be one of ${[...MARKS].map((m) => `"${m}"`).join(', ')}`);
      }
      return { object: 'mark', type: mark.type };
    });
    return { object: 'leaf', text: value.text, marks };
  }

  private key(value: Record<string, unknown>, path: string, out: RichTextNode): void {
    if (value.key === undefined) return;
    if (typeof value.key !== 'string' || value.key.length === 0 || value.key.length > RICH_TEXT_LIMITS.maxKeyLength) {
      this.fail(`${path}.key`, `must be a string of 1 to ${RICH_TEXT_LIMITS.maxKeyLength} characters`);
    }
    out.key = value.key;
  }

  private array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    return value;
  }

  private onlyKeys(value: Record<string, unknown>, path: string, allowed: string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(`${path}.${key}`, 'is not a known property of this node');
    }
  }

  private count(path: string): void {
    if (++this.nodes > RICH_TEXT_LIMITS.maxNodes) this.fail(path, `a document may hold at most ${RICH_TEXT_LIMITS.maxNodes} nodes`);
  }

  private addText(text: string, path: string): void {
    this.text += text.length;
    if (this.text > RICH_TEXT_LIMITS.maxTextLength) this.fail(path, `a document may hold at most ${RICH_TEXT_LIMITS.maxTextLength} characters of text`);
  }
}

/**
 * The validated document, rebuilt from the accepted parts only. `field` names it in error
 * messages (`instructions.nodes[2].type: ...`).
 */
export function parseRichTextDocument(value: unknown, field: string): RichTextDocument {
  return new Walker(field).document(value);
}

/** A document without content. */
export function emptyRichTextDocument(): RichTextDocument {
  return { object: 'document', data: {}, nodes: [] };
}
