import type { Response } from 'express';
import { openEventStream } from '../../../core/event-stream';
import { Passage } from '../domain/answer';
import { AnswerFormat, Answered, AskService, AskTools } from '../application/ask.service';

/**
 * Streams an answer as server-sent events, as GitBook's client reads them: `data: {type: "answer",
 * answer}` events, the last one the answer to keep (with a model, the extractive answer at once,
 * then the model's), then `event: done`. The passages are retrieved before: a refusal is a plain 4xx.
 */
export interface StreamedQuestion {
  organizationId: string;
  question: string;
  passages: Passage[];
  format: AnswerFormat;
  guidance?: string;
  tools?: AskTools | null;
  /** Called with the answer before `done` (to record it). */
  onAnswered?: (answered: Answered) => Promise<unknown>;
}

export async function streamAnswer(res: Response, ask: AskService, { organizationId, question, passages, format, guidance, tools, onAnswered }: StreamedQuestion): Promise<void> {
  await ask.assertBudget(organizationId);
  const aborted = new AbortController();
  res.on('close', () => aborted.abort());
  openEventStream(res);
  const send = (answer: unknown) => res.write(`data: ${JSON.stringify({ type: 'answer', answer })}\n\n`);
  if (ask.modelConfigured && passages.length) send(ask.extractive(passages, format));
  const answered = await ask.answer(organizationId, question, passages, format, { signal: aborted.signal, guidance, tools });
  send(answered.answer);
  // Recorded before `done`, so a client that reads the site's questions next finds this one.
  await onAnswered?.(answered);
  res.end('event: done\ndata: {}\n\n');
}

export const STREAM_RESPONSE = { status: 200, content: { 'text/event-stream': { schema: { type: 'string' } } }, description: 'Server-sent events' } as const;
