import { MergeRules } from '../../organizations/domain/merge-rules';
import { MergeRulesInput, effectiveMergeRules, evaluateMergeRules, hasContent } from './merge-rules-evaluation';
import { Review } from './review';

let seq = 0;
const review = (reviewerId: string, status: Review['status'], revision = 'head', at = seq): Review => ({
  id: `r${++seq}`,
  changeRequestId: 'cr',
  reviewerId,
  status,
  revision,
  createdAt: new Date(1_000_000 + at * 1000),
});

const DESCRIPTION = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };

function input(overrides: Partial<MergeRulesInput> = {}, cr: Partial<MergeRulesInput['changeRequest']> = {}): MergeRulesInput {
  return {
    actorId: 'merger',
    changeRequest: { number: 3, createdBy: 'author', subject: 'Subject', description: DESCRIPTION, revision: 'head', ...cr },
    outdated: false,
    reviews: [],
    ...overrides,
  };
}

const rules = (...list: MergeRules extends infer R ? (R extends { rules: infer L } ? L : never) : never): MergeRules => ({ type: 'rules', rules: list as never });

describe('evaluateMergeRules', () => {
  it('passes with no rules', () => {
    expect(evaluateMergeRules({ type: 'none' }, input())).toEqual({ ok: true, bypassed: false });
    expect(evaluateMergeRules({ type: 'rules', rules: [] }, input())).toEqual({ ok: true, bypassed: false });
  });

  it('require_specific_reviewers: every listed user must approve the current head', () => {
    const r = rules({ rule: 'require_specific_reviewers', users: ['bob', 'carol'] });
    const missing = evaluateMergeRules(r, input({ reviews: [review('bob', 'approved')] }));
    expect(missing).toEqual({ ok: false, failures: [expect.stringContaining('"carol"')] });
    expect((missing as { failures: string[] }).failures[0]).not.toContain('"bob"');
    expect(evaluateMergeRules(r, input({ reviews: [review('bob', 'approved'), review('carol', 'approved')] })).ok).toBe(true);
  });

  it('approvals of an older head do not count; the latest review of a reviewer wins', () => {
    const r = rules({ rule: 'require_specific_reviewers', users: ['bob'] });
    expect(evaluateMergeRules(r, input({ reviews: [review('bob', 'approved', 'old')] })).ok).toBe(false);
    expect(evaluateMergeRules(r, input({ reviews: [review('bob', 'approved', 'head', 1), review('bob', 'changes-requested', 'head', 2)] })).ok).toBe(false);
    expect(evaluateMergeRules(r, input({ reviews: [review('bob', 'changes-requested', 'head', 3), review('bob', 'approved', 'head', 4)] })).ok).toBe(true);
  });

  it('the author is never required as a reviewer and their reviews never count', () => {
    const r = rules({ rule: 'require_specific_reviewers', users: ['author', 'bob'] });
    expect(evaluateMergeRules(r, input({ reviews: [review('bob', 'approved')] })).ok).toBe(true);
    const one = rules({ rule: 'require_at_least_one_review' });
    expect(evaluateMergeRules(one, input({ reviews: [review('author', 'approved')] })).ok).toBe(false);
  });

  it('require_one_of_specific_reviewers', () => {
    const r = rules({ rule: 'require_one_of_specific_reviewers', users: ['bob', 'carol'] });
    expect(evaluateMergeRules(r, input({ reviews: [review('dave', 'approved')] }))).toEqual({
      ok: false,
      failures: [expect.stringMatching(/one of "bob", "carol"/)],
    });
    expect(evaluateMergeRules(r, input({ reviews: [review('carol', 'approved')] })).ok).toBe(true);
    const onlyAuthor = rules({ rule: 'require_one_of_specific_reviewers', users: ['author'] });
    expect(evaluateMergeRules(onlyAuthor, input({ reviews: [review('bob', 'approved')] })).ok).toBe(false);
  });

  it('require_at_least_one_review and require_all_reviews_approved', () => {
    const atLeastOne = rules({ rule: 'require_at_least_one_review' });
    expect(evaluateMergeRules(atLeastOne, input()).ok).toBe(false);
    expect(evaluateMergeRules(atLeastOne, input({ reviews: [review('bob', 'changes-requested')] })).ok).toBe(false);
    expect(evaluateMergeRules(atLeastOne, input({ reviews: [review('bob', 'approved')] })).ok).toBe(true);
    const all = rules({ rule: 'require_all_reviews_approved' });
    expect(evaluateMergeRules(all, input()).ok).toBe(true);
    const blocked = evaluateMergeRules(all, input({ reviews: [review('bob', 'approved'), review('carol', 'changes-requested', 'old')] }));
    expect(blocked).toEqual({ ok: false, failures: [expect.stringContaining('"carol"')] });
  });

  it('up to date, subject and description', () => {
    expect(evaluateMergeRules(rules({ rule: 'require_up_to_date_change_request' }), input({ outdated: true })).ok).toBe(false);
    expect(evaluateMergeRules(rules({ rule: 'require_up_to_date_change_request' }), input()).ok).toBe(true);
    expect(evaluateMergeRules(rules({ rule: 'require_change_request_subject' }), input({}, { subject: '  ' })).ok).toBe(false);
    expect(evaluateMergeRules(rules({ rule: 'require_change_request_subject' }), input()).ok).toBe(true);
    expect(evaluateMergeRules(rules({ rule: 'require_change_request_description' }), input({}, { description: null })).ok).toBe(false);
    expect(evaluateMergeRules(rules({ rule: 'require_change_request_description' }), input()).ok).toBe(true);
  });

  it('agent and custom rules cannot pass, but bypass users merge anyway', () => {
    const r = rules({ rule: 'require_agent_review' }, { rule: 'custom', expression: 'true' }, { rule: 'allow_bypass', users: ['boss'] });
    const refused = evaluateMergeRules(r, input());
    expect(refused).toEqual({ ok: false, failures: [expect.stringMatching(/agent/), expect.stringMatching(/custom/)] });
    expect(evaluateMergeRules(r, input({ actorId: 'boss' }))).toEqual({ ok: true, bypassed: true });
  });

  it('names every failing rule', () => {
    const r = rules(
      { rule: 'require_specific_reviewers', users: ['bob'] },
      { rule: 'require_change_request_subject' },
      { rule: 'require_up_to_date_change_request' },
    );
    const verdict = evaluateMergeRules(r, input({ outdated: true }, { subject: '' }));
    expect(verdict.ok).toBe(false);
    expect((verdict as { failures: string[] }).failures).toHaveLength(3);
  });
});

describe('effectiveMergeRules', () => {
  it('follows the organization on inherit', () => {
    const org: MergeRules = rules({ rule: 'require_at_least_one_review' });
    expect(effectiveMergeRules({ type: 'inherit' }, org)).toBe(org);
    expect(effectiveMergeRules({ type: 'none' }, org)).toEqual({ type: 'none' });
  });
});

describe('hasContent', () => {
  it('needs some non-blank text or a void node', () => {
    expect(hasContent(null)).toBe(false);
    expect(hasContent({ object: 'document', data: {}, nodes: [] })).toBe(false);
    const blank = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '  ', marks: [] }] }] }] };
    expect(hasContent(blank)).toBe(false);
    expect(hasContent(DESCRIPTION)).toBe(true);
    expect(hasContent({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'divider', isVoid: true, data: {} }] })).toBe(true);
  });
});
