import { InvalidError } from '@app/common';
// jexl ships no type declarations; the surface used here is compile() and evalSync().
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Jexl } = require('jexl') as { Jexl: new () => { compile(expression: string): { evalSync(context: object): unknown } } };

/**
 * Conditions of sections and site spaces (`visitor.claims.unsigned.isBeta == true`), evaluated
 * with jexl: a parser and interpreter of a small expression language, so a condition can read the
 * visitor's claims but never run code. A private instance: no function or transform is registered,
 * so calls in a condition are errors, and an error or a missing claim means "not shown".
 */
const engine = new Jexl();

export interface VisitorContext {
  visitor: { claims: Record<string, unknown> & { unsigned: Record<string, unknown> } };
}

export type CompiledCondition = (context: VisitorContext) => boolean;

/** JavaScript's strict operators, which GitBook's examples use, read as jexl's (outside string literals). */
function normalize(expression: string): string {
  return expression.replace(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|([=!])==/g, (match, literal: string | undefined, op: string) => literal ?? `${op}=`);
}

/** Parses a condition when it is saved: 400 with the parser's message on a syntax error. */
export function assertCondition(value: unknown, field = 'condition'): string {
  if (typeof value !== 'string' || value.length > 1024) throw new InvalidError(`${field}: an expression of at most 1024 characters, or null`);
  if (!value.trim()) throw new InvalidError(`${field}: an empty expression (use null to remove the condition)`);
  try {
    engine.compile(normalize(value));
  } catch (error) {
    throw new InvalidError(`${field}: not a valid expression (${(error as Error).message.slice(0, 200)})`);
  }
  return value;
}

const cache = new Map<string, CompiledCondition>();

function compileCondition(expression: string): CompiledCondition {
  let compiled = cache.get(expression);
  if (compiled) return compiled;
  let program: { evalSync(context: object): unknown } | null = null;
  try {
    program = engine.compile(normalize(expression));
  } catch {
    program = null;
  }
  compiled = (context) => {
    if (!program) return false;
    try {
      return program.evalSync(context) === true;
    } catch {
      return false;
    }
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(expression, compiled);
  return compiled;
}

/** True when there is no condition, or it holds for the visitor. */
export function visible(condition: string | null | undefined, context: VisitorContext): boolean {
  return !condition || compileCondition(condition)(context);
}

/** Unsigned claims from `visitor.a.b=value` query parameters: true/false/null/numbers/JSON coerced, as GitBook does. */
export function unsignedClaimsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith('visitor.') || typeof raw !== 'string') continue;
    const path = key.slice('visitor.'.length).split('.').filter(Boolean);
    if (!path.length || path.some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype')) continue;
    let target = claims;
    for (const part of path.slice(0, -1)) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = coerce(raw);
  }
  return claims;
}

function coerce(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object') return parsed;
  } catch {
    // a plain string
  }
  return raw;
}
