import type { Response } from 'express';
import { Passage } from '../domain/answer';
import { AnswerFormat, AskService } from '../application/ask.service';

/**
 * Streams an answer as server-sent events, as GitBook's client reads them: `data: {type: "answer",
 * answer}` events, the last one the answer to keep (with a model, the extractive answer at once,
 * then the model's), then `event: done`. The passages are retrieved before: a refusal is a plain 4xx.
 */
export async function streamAnswer(res: Response, ask: AskService, question: string, passages: Passage[], format: AnswerFormat): Promise<void> {
  const aborted = new AbortController();
  res.on('close', () => aborted.abort());
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const send = (answer: unknown) => res.write(`data: ${JSON.stringify({ type: 'answer', answer })}\n\n`);
  if (ask.modelConfigured && passages.length) send(ask.extractive(passages, format));
  send(await ask.answer(question, passages, format, aborted.signal));
  res.end('event: done\ndata: {}\n\n');
}

export const STREAM_RESPONSE = { status: 200, content: { 'text/event-stream': { schema: { type: 'string' } } }, description: 'Server-sent events' } as const;
