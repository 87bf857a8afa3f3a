/**
 * The analysis that works without a model: each question or complaint a user wrote is an issue;
 * issues are compared as term-frequency vectors (stop words out, light stemming) by cosine
 * similarity, and join the most similar cluster above a threshold, or start one.
 */
export interface ExtractedIssue {
  title: string;
  summary: string;
}

export type TermVector = Record<string, number>;

const COMPLAINT = /\b(can'?t|cannot|couldn'?t|doesn'?t|don'?t|won'?t|isn'?t|not working|fails?|failed|failing|error|errors|broken|unable|missing|wrong|confus\w*|unclear|stuck|problem|issue|bug|crash\w*)\b/i;
const STOP = new Set(
  'a an and are as at be but by can could do does did for from has have how i if in into is it its me my no not of on or our please so that the their them then there these they this to was we what when where which who why will with would you your hi hello thanks thank hey just also get got any some there'.split(' '),
);
export const SIMILARITY_THRESHOLD = 0.3;
const MAX_ISSUES_PER_CONVERSATION = 5;

export function extractIssues(messages: Array<{ role: string; body: string }>): ExtractedIssue[] {
  const issues: ExtractedIssue[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const text = message.body.replace(/<[^>]+>/g, ' ').replace(/[`*_#>]/g, '').replace(/\s+/g, ' ').trim();
    for (const sentence of text.split(/(?<=[.!?])\s+/)) {
      const clean = sentence.trim();
      if (clean.length < 8) continue;
      if (clean.endsWith('?') || COMPLAINT.test(clean)) {
        issues.push({ title: clip(clean, 120), summary: clip(text, 500) });
        if (issues.length >= MAX_ISSUES_PER_CONVERSATION) return issues;
      }
    }
  }
  return issues;
}

export function termVector(text: string): TermVector {
  const vector: TermVector = {};
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 3 || STOP.has(raw)) continue;
    const term = stem(raw);
    vector[term] = (vector[term] ?? 0) + 1;
  }
  return vector;
}

export function cosine(a: TermVector, b: TermVector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [term, weight] of Object.entries(a)) {
    na += weight * weight;
    if (b[term]) dot += weight * b[term];
  }
  for (const weight of Object.values(b)) nb += weight * weight;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The centroid after adding a member (sums; cosine ignores scale). Keeps the 200 heaviest terms. */
export function addToCentroid(centroid: TermVector, vector: TermVector): TermVector {
  const sum: TermVector = { ...centroid };
  for (const [term, weight] of Object.entries(vector)) sum[term] = (sum[term] ?? 0) + weight;
  return Object.fromEntries(Object.entries(sum).sort((x, y) => y[1] - x[1]).slice(0, 200));
}

/** The most similar cluster at or above the threshold, or null. */
export function bestCluster(vector: TermVector, clusters: Array<{ id: string; centroid: TermVector }>): string | null {
  let best: string | null = null;
  let score = SIMILARITY_THRESHOLD;
  for (const cluster of clusters) {
    const similarity = cosine(vector, cluster.centroid);
    if (similarity >= score) {
      best = cluster.id;
      score = similarity;
    }
  }
  return best;
}

/** A label from the centroid's heaviest terms, e.g. "Password reset". */
export function labelOf(centroid: TermVector): string {
  const terms = Object.entries(centroid).sort((x, y) => y[1] - x[1]).slice(0, 3).map(([term]) => term);
  if (terms.length === 0) return 'Other questions';
  const label = terms.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
