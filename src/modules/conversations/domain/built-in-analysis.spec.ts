import { addToCentroid, bestCluster, cosine, extractIssues, labelOf, termVector } from './built-in-analysis';
import { parseIngestBody } from './conversation-input';

describe('built-in analysis', () => {
  it('takes each question or complaint a user wrote as an issue, not the team’s messages or thanks', () => {
    const issues = extractIssues([
      { role: 'user', body: 'Hello there. How do I rotate an API token? Also the <b>export</b> fails with an error.' },
      { role: 'team-member', body: 'Why do you ask? We can help.' },
      { role: 'user', body: 'Thanks a lot, great product!' },
    ]);
    expect(issues.map((issue) => issue.title)).toEqual(['How do I rotate an API token?', 'Also the export fails with an error.']);
    expect(issues[0].summary).toContain('How do I rotate an API token?');
  });

  it('compares issues by their terms; similar ones share a cluster, others start one', () => {
    const a = termVector('How do I reset my password? The reset email never arrives.');
    const b = termVector('The password reset email does not arrive');
    const c = termVector('Where is the API rate limit documented?');
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, c)).toBe(0);
    const clusters = [{ id: 'passwords', centroid: addToCentroid({}, a) }];
    expect(bestCluster(b, clusters)).toBe('passwords');
    expect(bestCluster(c, clusters)).toBeNull();
    expect(labelOf(clusters[0].centroid).toLowerCase()).toContain('reset');
  });
});

describe('parseIngestBody', () => {
  it('takes one conversation or an array and refuses bad shapes with the field', () => {
    expect(parseIngestBody({ id: 'a', parts: [{ type: 'message', role: 'user', body: 'hi' }] })).toHaveLength(1);
    expect(parseIngestBody([{ id: 'a', parts: [] }, { id: 'b', parts: [] }])).toHaveLength(2);
    expect(() => parseIngestBody([{ id: 'a', parts: [] }, { id: 'b', parts: [{ type: 'message', role: 'robot', body: '' }] }])).toThrow('[1].parts[0].role');
    expect(() => parseIngestBody({ id: 'a', parts: [], metadata: { createdAt: 'yesterday' } })).toThrow('metadata.createdAt');
  });
});
