import { keywords } from '../../ask/domain/answer';

/** What a piece of evidence says about the documentation. */
export type EvidenceSignal = 'unanswered' | 'weak-answer' | 'no-results' | 'unhelpful' | 'reported';

/** One piece of evidence a scan reads: a reader's question (by its id) or a record. */
export interface Evidence {
  kind: 'question' | 'record';
  id: string;
  text: string;
  /** How much it counts: askings, searches, ratings. */
  weight: number;
  signal: EvidenceSignal;
  /** Pages it is known to be about. */
  pages: Array<{ spaceId: string; pageId: string }>;
  /** `questions`, or the record's connector. */
  source: string;
}

export interface TopicDraft {
  key: string;
  label: string;
  evidence: Evidence[];
}

export type FindingType = 'content-outdated' | 'content-incorrect' | 'content-gap' | 'broken-link' | 'outbound-link-error' | 'other';
export type Severity = 'low' | 'medium' | 'high';

export interface FindingDraft {
  /** Identifies the finding across scans: its type and topic. */
  key: string;
  type: FindingType;
  severity: Severity;
  title: string;
  summary: string;
  samples: string[];
  evidence: Evidence[];
}

/** A topic needs at least this much evidence (summed weights) to be kept. */
export const MIN_TOPIC_WEIGHT = 2;

/**
 * Groups evidence into topics without a model: each piece goes under the word of its text that the
 * most pieces share (ties: the longer word), so evidence about one subject gathers under its common
 * word. Groups with too little evidence are left out.
 */
export function groupIntoTopics(evidence: readonly Evidence[]): TopicDraft[] {
  const terms = evidence.map((e) => keywords(e.text, 6));
  const frequency = new Map<string, number>();
  terms.forEach((words) => new Set(words).forEach((w) => frequency.set(w, (frequency.get(w) ?? 0) + 1)));
  const groups = new Map<string, Evidence[]>();
  evidence.forEach((e, i) => {
    const best = [...terms[i]].sort((a, b) => (frequency.get(b) ?? 0) - (frequency.get(a) ?? 0) || b.length - a.length || a.localeCompare(b))[0];
    if (!best) return;
    groups.set(best, [...(groups.get(best) ?? []), e]);
  });
  return [...groups.entries()]
    .filter(([, items]) => items.reduce((sum, e) => sum + e.weight, 0) >= MIN_TOPIC_WEIGHT)
    .map(([key, items]) => ({ key, label: key.charAt(0).toUpperCase() + key.slice(1), evidence: items }))
    .sort((a, b) => weightOf(b.evidence) - weightOf(a.evidence) || a.key.localeCompare(b.key));
}

const GAP: ReadonlySet<EvidenceSignal> = new Set(['unanswered', 'weak-answer', 'no-results']);

/**
 * The findings of a topic: readers who found nothing (unanswered questions, weak answers, searches
 * without results) make a content gap; readers and agents who found something wrong (pages rated
 * unhelpful, reports) make incorrect content. Severity grows with the evidence.
 */
export function findingsFor(topic: TopicDraft): FindingDraft[] {
  const gap = topic.evidence.filter((e) => GAP.has(e.signal));
  const wrong = topic.evidence.filter((e) => !GAP.has(e.signal));
  const drafts: FindingDraft[] = [];
  if (gap.length) {
    drafts.push({
      key: `content-gap:${topic.key}`,
      type: 'content-gap',
      severity: severityOf(weightOf(gap)),
      title: `Readers do not find answers about ${topic.label.toLowerCase()}`,
      summary: `${describe(gap)} about ${topic.label.toLowerCase()} found no good answer in the documentation.`,
      samples: samples(gap),
      evidence: gap,
    });
  }
  if (wrong.length) {
    drafts.push({
      key: `content-incorrect:${topic.key}`,
      type: 'content-incorrect',
      severity: severityOf(weightOf(wrong)),
      title: `Content about ${topic.label.toLowerCase()} is reported unhelpful`,
      summary: `${describe(wrong)} say the documentation about ${topic.label.toLowerCase()} is unhelpful or wrong.`,
      samples: samples(wrong),
      evidence: wrong,
    });
  }
  return drafts;
}

export function severityOf(weight: number): Severity {
  return weight >= 10 ? 'high' : weight >= 4 ? 'medium' : 'low';
}

export function weightOf(evidence: readonly Evidence[]): number {
  return evidence.reduce((sum, e) => sum + e.weight, 0);
}

function describe(evidence: readonly Evidence[]): string {
  const questions = evidence.filter((e) => e.kind === 'question').reduce((n, e) => n + e.weight, 0);
  const records = evidence.filter((e) => e.kind === 'record').length;
  const parts = [questions ? `${questions} question${questions === 1 ? '' : 's'} from readers` : '', records ? `${records} record${records === 1 ? '' : 's'}` : ''].filter(Boolean);
  return parts.join(' and ');
}

function samples(evidence: readonly Evidence[]): string[] {
  return [...evidence].sort((a, b) => b.weight - a.weight).slice(0, 5).map((e) => e.text.slice(0, 200));
}

/** The pages of the evidence, once each. */
export function pagesOf(evidence: readonly Evidence[]): Array<{ spaceId: string; pageId: string }> {
  const seen = new Set<string>();
  return evidence.flatMap((e) => e.pages).filter((p) => !seen.has(`${p.spaceId}/${p.pageId}`) && !!seen.add(`${p.spaceId}/${p.pageId}`));
}
