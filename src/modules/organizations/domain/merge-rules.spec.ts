import { InvalidError } from '@app/common';
import {
  MAX_EXPRESSION_LENGTH,
  MAX_MERGE_RULES,
  MAX_RULE_USERS,
  mergeRuleUserIds,
  mergeRulesWithoutUser,
  parseMergeRules,
  parseSpaceMergeRules,
} from './merge-rules';

describe('parseMergeRules', () => {
  it('accepts {type: none} and every rule kind of the contract', () => {
    expect(parseMergeRules({ type: 'none' })).toEqual({ type: 'none' });
    const rules = [
      { rule: 'require_specific_reviewers', users: ['u1'] },
      { rule: 'require_one_of_specific_reviewers', users: ['u1', 'u2'] },
      { rule: 'allow_bypass', users: [] },
      { rule: 'require_at_least_one_review' },
      { rule: 'require_all_reviews_approved' },
      { rule: 'require_agent_review' },
      { rule: 'require_up_to_date_change_request' },
      { rule: 'require_change_request_subject' },
      { rule: 'require_change_request_description' },
      { rule: 'custom', expression: 'changeRequest.reviews.length > 1' },
      { rule: 'custom', expression: 'true', message: 'always' },
    ];
    expect(parseMergeRules({ type: 'rules', rules })).toEqual({ type: 'rules', rules });
  });

  it('drops duplicate user ids inside a rule', () => {
    expect(parseMergeRules({ type: 'rules', rules: [{ rule: 'allow_bypass', users: ['a', 'b', 'a'] }] })).toEqual({
      type: 'rules',
      rules: [{ rule: 'allow_bypass', users: ['a', 'b'] }],
    });
  });

  it.each([
    ['not an object', 'rules'],
    ['an array', []],
    ['null', null],
    ['an unknown type', { type: 'inherit' }],
    ['a missing type', { rules: [] }],
    ['extra keys on none', { type: 'none', rules: [] }],
    ['rules that are not an array', { type: 'rules', rules: {} }],
    ['missing rules', { type: 'rules' }],
    ['extra keys on rules', { type: 'rules', rules: [], other: 1 }],
    ['an unknown rule', { type: 'rules', rules: [{ rule: 'require_magic' }] }],
    ['a rule that is not an object', { type: 'rules', rules: ['require_agent_review'] }],
    ['a reviewer rule without users', { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] }],
    ['users that are not strings', { type: 'rules', rules: [{ rule: 'allow_bypass', users: [1] }] }],
    ['an empty user id', { type: 'rules', rules: [{ rule: 'allow_bypass', users: [''] }] }],
    ['a too long user id', { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['x'.repeat(33)] }] }],
    ['users on a simple rule', { type: 'rules', rules: [{ rule: 'require_agent_review', users: ['a'] }] }],
    ['a custom rule without expression', { type: 'rules', rules: [{ rule: 'custom' }] }],
    ['a too long expression', { type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(MAX_EXPRESSION_LENGTH + 1) }] }],
    ['a non-string message', { type: 'rules', rules: [{ rule: 'custom', expression: 'true', message: 3 }] }],
    ['a duplicate rule', { type: 'rules', rules: [{ rule: 'require_agent_review' }, { rule: 'require_agent_review' }] }],
    ['too many rules', { type: 'rules', rules: Array.from({ length: MAX_MERGE_RULES + 1 }, () => ({ rule: 'custom', expression: 'true' })) }],
    ['too many users', { type: 'rules', rules: [{ rule: 'allow_bypass', users: Array.from({ length: MAX_RULE_USERS + 1 }, (_, i) => `u${i}`) }] }],
  ])('refuses %s', (_name, value) => {
    expect(() => parseMergeRules(value)).toThrow(InvalidError);
  });

  it('allows several custom rules', () => {
    const value = { type: 'rules', rules: [{ rule: 'custom', expression: 'a' }, { rule: 'custom', expression: 'b' }] };
    expect(parseMergeRules(value)).toEqual(value);
  });

  it('names the offending rule in the message', () => {
    expect(() => parseMergeRules({ type: 'rules', rules: [{ rule: 'require_agent_review' }, { rule: 'nope' }] })).toThrow(/mergeRules\.rules\[1\]\.rule/);
  });
});

describe('mergeRuleUserIds', () => {
  it('lists every named user once', () => {
    const rules = parseMergeRules({
      type: 'rules',
      rules: [
        { rule: 'require_specific_reviewers', users: ['a', 'b'] },
        { rule: 'allow_bypass', users: ['b', 'c'] },
        { rule: 'require_agent_review' },
      ],
    });
    expect(mergeRuleUserIds(rules).sort()).toEqual(['a', 'b', 'c']);
    expect(mergeRuleUserIds({ type: 'none' })).toEqual([]);
  });
});

describe('mergeRulesWithoutUser', () => {
  it('removes the user from every list and keeps the rules', () => {
    const rules = parseMergeRules({
      type: 'rules',
      rules: [
        { rule: 'require_one_of_specific_reviewers', users: ['a'] },
        { rule: 'allow_bypass', users: ['a', 'b'] },
        { rule: 'custom', expression: 'true' },
      ],
    });
    expect(mergeRulesWithoutUser(rules, 'a')).toEqual({
      type: 'rules',
      rules: [
        { rule: 'require_one_of_specific_reviewers', users: [] },
        { rule: 'allow_bypass', users: ['b'] },
        { rule: 'custom', expression: 'true' },
      ],
    });
    expect(mergeRulesWithoutUser({ type: 'none' }, 'a')).toEqual({ type: 'none' });
  });
});

describe('space merge rules', () => {
  it('accept inherit besides the organization configurations', () => {
    expect(parseSpaceMergeRules({ type: 'inherit' })).toEqual({ type: 'inherit' });
    expect(parseSpaceMergeRules({ type: 'none' })).toEqual({ type: 'none' });
    expect(mergeRuleUserIds({ type: 'inherit' })).toEqual([]);
  });

  it('refuse what organizations refuse, and extra keys on inherit', () => {
    expect(() => parseSpaceMergeRules({ type: 'inherit', rules: [] })).toThrow(/rules/);
    expect(() => parseSpaceMergeRules({ type: 'rules', rules: [{ rule: 'nope' }] })).toThrow(/rules\[0\]\.rule/);
    expect(() => parseMergeRules({ type: 'inherit' })).toThrow(/type/);
  });
});
