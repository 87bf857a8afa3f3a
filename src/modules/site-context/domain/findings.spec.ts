import { Evidence, findingsFor, groupIntoTopics, pagesOf, severityOf } from './findings';

const question = (id: string, text: string, weight = 1, signal: Evidence['signal'] = 'unanswered'): Evidence => ({ kind: 'question', id, text, weight, signal, pages: [], source: 'questions' });
const record = (id: string, text: string, signal: Evidence['signal'], pages: Evidence['pages'] = []): Evidence => ({ kind: 'record', id, text, weight: 1, signal, pages, source: 'builtin:api' });

describe('findings without a model', () => {
  it('groups evidence under the word it shares most', () => {
    const topics = groupIntoTopics([
      question('q1', 'How do I rotate webhook secrets?', 2),
      question('q2', 'webhook retries'),
      record('r1', 'Searched: webhook signature', 'no-results'),
      question('q3', 'pricing for teams'),
      question('q4', 'zebra'),
    ]);
    expect(topics.map((t) => t.key)).toEqual(['webhook']);
    expect(topics[0].label).toBe('Webhook');
    expect(topics[0].evidence.map((e) => e.id)).toEqual(['q1', 'q2', 'r1']);
  });

  it('makes a gap of what found nothing and an incorrect-content finding of what was rated wrong', () => {
    const pages = [{ spaceId: 's', pageId: 'p' }];
    const [gap, wrong] = findingsFor({
      key: 'webhook',
      label: 'Webhook',
      evidence: [question('q1', 'webhook retries', 3), record('r1', 'Rated unhelpful: Webhooks', 'unhelpful', pages), record('r2', 'Agent: webhook page is wrong', 'reported', pages)],
    });
    expect(gap).toMatchObject({ key: 'content-gap:webhook', type: 'content-gap', severity: 'low', samples: ['webhook retries'] });
    expect(gap.summary).toBe('3 questions from readers about webhook found no good answer in the documentation.');
    expect(wrong).toMatchObject({ key: 'content-incorrect:webhook', type: 'content-incorrect' });
    expect(pagesOf(wrong.evidence)).toEqual(pages);
  });

  it('rates severity by the evidence', () => {
    expect([severityOf(1), severityOf(4), severityOf(10)]).toEqual(['low', 'medium', 'high']);
  });
});
