import type { Response } from 'express';
import { openEventStream } from '../../../core/event-stream';
import { newId } from '@app/common';
import { markdownToDocument } from '../../content/domain/markdown';
import { Answered, AskService, AskTools } from '../application/ask.service';
import { Passage } from '../domain/answer';

export interface StreamedResponse {
  organizationId: string;
  question: string;
  passages: Passage[];
  guidance?: string;
  previousResponseId?: string;
  tools?: AskTools | null;
  /** Records the answer (before the stream ends) and gives the id of the response it was recorded as. */
  record: (answered: Answered, messageId: string) => Promise<{ responseId: string }>;
}

/**
 * Streams an answer as GitBook's AI response events: `response_start`, one step holding the search
 * (a `search` tool call with the pages found) and the answer's blocks (`response_document`, one
 * `insert` per block), then `response_finish` with the response id to continue from, then `event: done`.
 */
export async function streamAiResponse(res: Response, ask: AskService, input: StreamedResponse): Promise<void> {
  await ask.assertBudget(input.organizationId);
  const aborted = new AbortController();
  res.on('close', () => aborted.abort());
  openEventStream(res);
  const messageId = newId();
  const send = (event: Record<string, unknown>) => res.write(`data: ${JSON.stringify({ ...event, messageId })}\n\n`);
  send({ type: 'response_start' });
  send({ type: 'response_step_start', stepIndex: 0, phase: 'final_answer' });
  send({ type: 'response_tool_call', stepIndex: 0, toolCall: { tool: 'search', query: input.question, results: searchResults(input.passages) } });
  const answered = await ask.answer(input.organizationId, input.question, input.passages, 'markdown', { signal: aborted.signal, guidance: input.guidance, tools: input.tools });
  for (const used of answered.toolCalls) send({ type: 'response_tool_call', stepIndex: 0, toolCall: { tool: 'mcp', mcpServerId: used.serverId, mcpToolName: used.toolName } });
  for (const block of markdownToDocument(answered.markdown).nodes) send({ type: 'response_document', stepIndex: 0, operation: 'insert', blocks: [block] });
  const { responseId } = await input.record(answered, messageId);
  send({ type: 'response_finish', responseId, response: { id: responseId, ...(input.previousResponseId ? { previous: input.previousResponseId } : {}) } });
  res.end('event: done\ndata: {}\n\n');
}

/** The pages the passages come from, once each, as GitBook's search tool results. */
function searchResults(passages: readonly Passage[]) {
  const seen = new Set<string>();
  return passages.flatMap((p) => {
    const key = `${p.spaceId}/${p.pageId}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ type: 'page', spaceId: p.spaceId, pageId: p.pageId, revisionId: p.revisionId, ...(p.sectionId ? { anchor: p.sectionId } : {}), title: p.pageTitle }];
  });
}
