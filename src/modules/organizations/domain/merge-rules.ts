import { InvalidError } from '@app/common';

/**
 * Merge rules (GitBook's `MergeRulesStandaloneConfiguration`): either no rules, or rules that
 * must all pass before a change request may be merged. Organizations set them; a space follows
 * its organization's (`inherit`) or sets its own. Rule names are those of the
 * contract the API answers with (`@gitbook/api@0.146.0`'s `MergeRule`).
 */
export const USER_LIST_RULES = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
export const SIMPLE_RULES = [
  'require_at_least_one_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
] as const;

export type UserListRuleName = (typeof USER_LIST_RULES)[number];
export type SimpleRuleName = (typeof SIMPLE_RULES)[number];

export type MergeRule =
  | { rule: UserListRuleName; users: string[] }
  | { rule: SimpleRuleName }
  | { rule: 'custom'; expression: string; message?: string };

export type MergeRules = { type: 'none' } | { type: 'rules'; rules: MergeRule[] };
export type SpaceMergeRules = { type: 'inherit' } | MergeRules;

export const MAX_MERGE_RULES = 50;
export const MAX_RULE_USERS = 100;
export const MAX_EXPRESSION_LENGTH = 1024;
const MAX_USER_ID_LENGTH = 32;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function onlyKeys(value: Record<string, unknown>, allowed: string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw new InvalidError(`${where}: property ${unknown.map((k) => `"${k}"`).join(', ')} should not exist`);
}

function parseRule(value: unknown, where: string): MergeRule {
  if (!isObject(value)) throw new InvalidError(`${where}: must be an object`);
  const name = value.rule;
  if ((USER_LIST_RULES as readonly unknown[]).includes(name)) {
    onlyKeys(value, ['rule', 'users'], where);
    const users = value.users;
    if (!Array.isArray(users)) throw new InvalidError(`${where}.users: must be an array of user ids`);
    if (users.length > MAX_RULE_USERS) throw new InvalidError(`${where}.users: must contain at most ${MAX_RULE_USERS} user ids`);
    for (const id of users) {
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_USER_ID_LENGTH) {
        throw new InvalidError(`${where}.users: each value must be a user id`);
      }
    }
    return { rule: name as UserListRuleName, users: [...new Set(users as string[])] };
  }
  if ((SIMPLE_RULES as readonly unknown[]).includes(name)) {
    onlyKeys(value, ['rule'], where);
    return { rule: name as SimpleRuleName };
  }
  if (name === 'custom') {
    onlyKeys(value, ['rule', 'expression', 'message'], where);
    const { expression, message } = value;
    if (typeof expression !== 'string' || expression.length > MAX_EXPRESSION_LENGTH) {
      throw new InvalidError(`${where}.expression: must be a string of at most ${MAX_EXPRESSION_LENGTH} characters`);
    }
    if (message !== undefined && (typeof message !== 'string' || message.length > MAX_EXPRESSION_LENGTH)) {
      throw new InvalidError(`${where}.message: must be a string of at most ${MAX_EXPRESSION_LENGTH} characters`);
    }
    return message === undefined ? { rule: 'custom', expression } : { rule: 'custom', expression, message };
  }
  const known = [...USER_LIST_RULES, ...SIMPLE_RULES, 'custom'].join(', ');
  throw new InvalidError(`${where}.rule: must be one of ${known}`);
}

/**
 * Validates merge rules as a client sent them (any JSON) and returns them normalized
 * (duplicate user ids dropped). Each rule kind but `custom` may appear once.
 */
export function parseMergeRules(value: unknown, where = 'mergeRules'): MergeRules {
  if (!isObject(value)) throw new InvalidError(`${where}: must be an object`);
  if (value.type === 'none') {
    onlyKeys(value, ['type'], where);
    return { type: 'none' };
  }
  if (value.type !== 'rules') throw new InvalidError(`${where}.type: must be one of inherit (spaces only), none, rules`);
  onlyKeys(value, ['type', 'rules'], where);
  if (!Array.isArray(value.rules)) throw new InvalidError(`${where}.rules: must be an array`);
  if (value.rules.length > MAX_MERGE_RULES) throw new InvalidError(`${where}.rules: must contain at most ${MAX_MERGE_RULES} rules`);
  const rules = value.rules.map((rule, i) => parseRule(rule, `${where}.rules[${i}]`));
  const seen = new Set<string>();
  for (const { rule } of rules) {
    if (rule === 'custom') continue;
    if (seen.has(rule)) throw new InvalidError(`${where}.rules: rule "${rule}" is listed more than once`);
    seen.add(rule);
  }
  return { type: 'rules', rules };
}

/** As parseMergeRules, also accepting `{type: "inherit"}` (follow the organization's rules). */
export function parseSpaceMergeRules(value: unknown, where = 'mergeRules'): SpaceMergeRules {
  if (isObject(value) && value.type === 'inherit') {
    onlyKeys(value, ['type'], where);
    return { type: 'inherit' };
  }
  return parseMergeRules(value, where);
}

/** Every user the rules name (reviewers, bypassers); each must be a member of the organization. */
export function mergeRuleUserIds(rules: SpaceMergeRules): string[] {
  if (rules.type !== 'rules') return [];
  const ids = new Set<string>();
  for (const rule of rules.rules) if ('users' in rule) for (const id of rule.users) ids.add(id);
  return [...ids];
}

/**
 * The rules without a user who left the organization. Rules keep their kind even when their
 * list becomes empty, so that an admin's intent (e.g. "one of these must review") is not
 * silently dropped; an admin decides what replaces it.
 */
export function mergeRulesWithoutUser(rules: MergeRules, userId: string): MergeRules {
  if (rules.type !== 'rules') return rules;
  return {
    type: 'rules',
    rules: rules.rules.map((rule) => ('users' in rule ? { ...rule, users: rule.users.filter((id) => id !== userId) } : rule)),
  };
}
