import { parseRecommendation, questionFromTitle, recommend } from './recommended-questions';

describe('recommended questions', () => {
  it('makes a question of a title: tasks are how-tos, subjects what-is', () => {
    expect(questionFromTitle('Install the gizmo')).toBe('How do I install the gizmo?');
    expect(questionFromTitle('Set up SSO')).toBe('How do I set up SSO?');
    expect(questionFromTitle('Configuring webhooks')).toBe('How do I configure webhooks?');
    expect(questionFromTitle('Webhooks')).toBe('What is webhooks?');
    expect(questionFromTitle('GitHub Sync')).toBe('What is GitHub Sync?');
    expect(questionFromTitle('Can I export PDFs?')).toBe('Can I export PDFs?');
    expect(questionFromTitle('Introduction')).toBeNull();
  });

  it('puts what readers asked first, without repeats, up to the limit', () => {
    expect(recommend(['How do I install the gizmo?'], ['Install the gizmo', 'Billing', 'FAQ', 'Webhooks'], 3)).toEqual(['How do I install the gizmo?', 'What is billing?', 'What is webhooks?']);
  });

  it("reads a model's answer, or gives it up", () => {
    expect(parseRecommendation('{"questions": ["How?", "", 3, "Why?"]}')).toEqual(['How?', 'Why?']);
    expect(parseRecommendation('not json')).toBeNull();
    expect(parseRecommendation('{"questions": []}')).toBeNull();
  });
});
