import { narrowScope } from '../../sites/domain/search-scope';
import { parseAgentFeedback } from './agent-feedback';
import { defaultAgentSettings, parseAgentSettings } from './site-agent-settings';

const body = (extra: object = {}) => ({ scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, editing: { customInstructions: { object: 'document', nodes: [] } }, ...extra });

describe('site agent settings', () => {
  it('needs the three groups, keeps the assistant fields left out', () => {
    const current = { ...defaultAgentSettings(), assistant: { enabled: true, tone: 'friendly' as const, instructions: 'Be kind', siteSpaces: ['a'] } };
    expect(parseAgentSettings(body({ assistant: { enabled: false } }), current).assistant).toEqual({ enabled: false, tone: 'friendly', instructions: 'Be kind', siteSpaces: ['a'] });
    expect(parseAgentSettings(body(), current).assistant).toBe(current.assistant);
    expect(() => parseAgentSettings({ scans: { topics: 'auto' } }, current)).toThrow('findings');
    expect(() => parseAgentSettings(body({ assistant: { siteSpaces: ['../x'] } }), current)).toThrow('siteSpaces');
    expect(parseAgentSettings(body({ assistant: { siteSpaces: ['a', 'a', 'b'] } }), current).assistant.siteSpaces).toEqual(['a', 'b']);
  });

  it('keeps a search to the allowed site spaces', () => {
    expect(narrowScope({ mode: 'all' }, null)).toEqual({ mode: 'all' });
    expect(narrowScope({ mode: 'all' }, ['a'])).toEqual({ mode: 'specific', siteSpaceIds: ['a'] });
    expect(narrowScope({ mode: 'specific', siteSpaceIds: ['a', 'b'] }, ['b', 'c'])).toEqual({ mode: 'specific', siteSpaceIds: ['b'] });
    expect(narrowScope({ mode: 'default' }, [])).toEqual({ mode: 'specific', siteSpaceIds: [] });
  });
});

describe('agent feedback', () => {
  it('reads each subject kind with its own fields only', () => {
    const feedback = { category: 'reliability', summary: 'Flaky' };
    expect(parseAgentFeedback({ subject: { kind: 'mcp-tool', toolName: 'search', target: 'x' }, feedback }).subject).toEqual({ kind: 'mcp-tool', toolName: 'search', target: 'x' });
    expect(parseAgentFeedback({ subject: { kind: 'api-endpoint', method: 'GET', path: '/v1/spaces/{spaceId}' }, feedback }).subject.method).toBe('GET');
    expect(() => parseAgentFeedback({ subject: { kind: 'mcp-tool', toolName: 'search', url: 'https://x' }, feedback })).toThrow('subject.url: not a known field');
    expect(() => parseAgentFeedback({ subject: { kind: 'documentation', url: 'javascript:alert(1)' }, feedback })).toThrow('http(s)');
    expect(() => parseAgentFeedback({ subject: { kind: 'generic' }, feedback: { ...feedback, metrics: { callCount: -1 } } })).toThrow('callCount');
    expect(parseAgentFeedback({ subject: { kind: 'generic' }, feedback }).reportedBy).toEqual({ onDemand: false, model: undefined, userAgent: undefined, correlationId: undefined });
  });
});
