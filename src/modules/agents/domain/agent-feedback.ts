import { InvalidError } from '@app/common';

export const FEEDBACK_CATEGORIES = ['usability', 'reliability', 'documentation', 'efficiency', 'interoperability', 'could-not-accomplish'] as const;
export const FEEDBACK_SEVERITIES = ['low', 'medium', 'high'] as const;
export const SUBJECT_KINDS = ['mcp-tool', 'cli-command', 'api-endpoint', 'documentation', 'generic'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** An AI agent's report about something it worked with (GitBook's `AgentFeedbackInput`), as validated. */
export interface AgentFeedback {
  reportedBy: { model?: string; userAgent?: string; correlationId?: string; onDemand: boolean };
  subject: { kind: (typeof SUBJECT_KINDS)[number] } & Record<string, unknown>;
  feedback: {
    category: (typeof FEEDBACK_CATEGORIES)[number];
    severity?: (typeof FEEDBACK_SEVERITIES)[number];
    goal?: string;
    summary: string;
    detail?: string;
    workaround?: string;
    metrics?: { callCount?: number; successCount?: number; retryCount?: number };
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function only(field: string, value: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra) throw new InvalidError(`${field}.${extra}: not a known field`);
}

function text(field: string, value: unknown, max: number, required = false, min = 0): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.length < Math.max(min, required ? 1 : 0) || value.length > max) throw new InvalidError(`${field}: ${required ? 'required, ' : ''}text of at most ${max} characters`);
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidError(`${field}: one of ${allowed.join(', ')}`);
}

function count(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0) throw new InvalidError(`${field}: an integer, 0 or more`);
  return value as number;
}

/** Reads `submitAgentFeedbackToSite`'s body as GitBook's schema has it (no field it does not name). */
export function parseAgentFeedback(body: unknown): AgentFeedback {
  if (!isObject(body)) throw new InvalidError('Expected the feedback object');
  only('body', body, ['reportedBy', 'subject', 'feedback']);
  const reporter = body.reportedBy === undefined ? {} : body.reportedBy;
  if (!isObject(reporter)) throw new InvalidError('reportedBy: an object');
  only('reportedBy', reporter, ['model', 'userAgent', 'correlationId', 'onDemand']);
  if (reporter.onDemand !== undefined && typeof reporter.onDemand !== 'boolean') throw new InvalidError('reportedBy.onDemand: a boolean');
  const reportedBy = {
    model: text('reportedBy.model', reporter.model, 100),
    userAgent: text('reportedBy.userAgent', reporter.userAgent, 512),
    correlationId: text('reportedBy.correlationId', reporter.correlationId, 100),
    onDemand: reporter.onDemand === true,
  };
  return { reportedBy, subject: parseSubject(body.subject), feedback: parseContent(body.feedback) };
}

function parseSubject(value: unknown): AgentFeedback['subject'] {
  if (!isObject(value)) throw new InvalidError('subject: required, an object with its kind');
  const kind = oneOf('subject.kind', value.kind, SUBJECT_KINDS);
  switch (kind) {
    case 'mcp-tool':
      only('subject', value, ['kind', 'toolName', 'target']);
      return { kind, toolName: text('subject.toolName', value.toolName, 200, true), ...(value.target !== undefined ? { target: text('subject.target', value.target, 200) } : {}) };
    case 'cli-command': {
      only('subject', value, ['kind', 'command', 'flags']);
      const flags = value.flags;
      if (flags !== undefined && (!Array.isArray(flags) || flags.length > 50 || !flags.every((f) => typeof f === 'string' && f.length <= 100))) throw new InvalidError('subject.flags: at most 50 flag names');
      return { kind, command: text('subject.command', value.command, 200, true), ...(flags ? { flags } : {}) };
    }
    case 'api-endpoint':
      only('subject', value, ['kind', 'method', 'path']);
      return { kind, method: oneOf('subject.method', value.method, METHODS), path: text('subject.path', value.path, 500, true) };
    case 'documentation': {
      only('subject', value, ['kind', 'url']);
      const url = text('subject.url', value.url, 2048, true)!;
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new InvalidError('subject.url: an http(s) URL');
      return { kind, url };
    }
    default:
      only('subject', value, ['kind']);
      return { kind };
  }
}

function parseContent(value: unknown): AgentFeedback['feedback'] {
  if (!isObject(value)) throw new InvalidError('feedback: required, with its category and summary');
  only('feedback', value, ['category', 'severity', 'goal', 'summary', 'detail', 'workaround', 'metrics']);
  const metrics = value.metrics;
  if (metrics !== undefined) {
    if (!isObject(metrics)) throw new InvalidError('feedback.metrics: an object');
    only('feedback.metrics', metrics, ['callCount', 'successCount', 'retryCount']);
  }
  return {
    category: oneOf('feedback.category', value.category, FEEDBACK_CATEGORIES),
    ...(value.severity !== undefined ? { severity: oneOf('feedback.severity', value.severity, FEEDBACK_SEVERITIES) } : {}),
    ...(value.goal !== undefined ? { goal: text('feedback.goal', value.goal, 1024) } : {}),
    summary: text('feedback.summary', value.summary, 256, true)!,
    ...(value.detail !== undefined ? { detail: text('feedback.detail', value.detail, 4096) } : {}),
    ...(value.workaround !== undefined ? { workaround: text('feedback.workaround', value.workaround, 2048) } : {}),
    ...(isObject(metrics)
      ? { metrics: { callCount: count('feedback.metrics.callCount', metrics.callCount), successCount: count('feedback.metrics.successCount', metrics.successCount), retryCount: count('feedback.metrics.retryCount', metrics.retryCount) } }
      : {}),
  };
}

/** What the agent is told back: that its report was kept, and what happens to it. */
export function feedbackReceipt(feedback: AgentFeedback): string {
  const about = feedback.subject.kind === 'documentation' ? 'the documentation it names' : `this ${feedback.subject.kind.replace('-', ' ')}`;
  return `Thank you: your feedback about ${about} was recorded. The site's team reviews it with readers' questions and ratings when they look for what the documentation is missing.`;
}
