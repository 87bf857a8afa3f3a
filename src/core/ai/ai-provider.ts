import { Inject, Injectable, Logger } from '@nestjs/common';
import OpenAI from 'openai';
import { APP_CONFIG, AppConfig, InvalidError, UnavailableError } from '@app/common';
import { GuardedFetcher } from '../outbound/guarded-fetcher';
import { guardedFetchApi } from '../outbound/fetch-api';
import { AiUsage, AiUsageOwner } from './ai-usage';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A tool the model may call (a function with a JSON schema for its arguments). */
export interface ChatTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text, unchecked). */
  arguments: string;
}

/** The turns of a conversation with tools: the model's calls, and each call's result. */
export type ChatTurn = ChatMessage | { role: 'assistant'; content: string | null; toolCalls: ToolCall[] } | { role: 'tool'; toolCallId: string; content: string };

type CallInput = { maxTokens?: number; signal?: AbortSignal; usage?: AiUsageOwner; background?: boolean };

/** No model is configured (AI_API_URL and AI_MODEL): a 503 for the caller. */
export class AiNotConfiguredError extends UnavailableError {
  constructor() {
    super('No language model is configured on this server (AI_API_URL, AI_MODEL)');
  }
}

/** The model could not answer. The message names the HTTP status or the kind of failure, never the key or the URL. */
export class AiProviderError extends Error {}

const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * The language model: any OpenAI-compatible chat-completions API, through the official `openai`
 * client, whose requests go through the guarded fetcher (outbound policy, time and size limits).
 * The client retries 429 and 5xx answers with backoff, honouring `Retry-After`; at most
 * AI_MAX_CONCURRENCY calls run at once in this process.
 */
@Injectable()
export class AiProvider {
  private readonly logger = new Logger(AiProvider.name);
  private readonly client: OpenAI | null;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    fetcher: GuardedFetcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly usage: AiUsage,
  ) {
    this.client =
      config.aiApiUrl && config.aiModel
        ? new OpenAI({
            apiKey: config.aiApiKey ?? 'unused',
            baseURL: config.aiApiUrl,
            maxRetries: config.aiMaxRetries,
            timeout: config.aiTimeoutMs,
            fetch: guardedFetchApi(fetcher, { maxBytes: MAX_ANSWER_BYTES, timeoutMs: config.aiTimeoutMs }),
          })
        : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /**
   * One chat completion. With `usage`, the call's tokens are counted for the organization (the
   * API's own count, else about four characters a token) and, unless `background` (a job finishing
   * work it started), its daily budget is checked first: 429 when spent.
   */
  async complete(input: CallInput & { messages: ChatMessage[]; json?: boolean }): Promise<string> {
    return (await this.call(input.messages, input, input.json ? { response_format: { type: 'json_object' as const } } : {})).content;
  }

  /** The same with tools the model may call: its answer, or the calls it makes instead (their results go back as `tool` turns). */
  async chat(input: CallInput & { messages: ChatTurn[]; tools: ChatTool[] }): Promise<{ content: string; toolCalls: ToolCall[] }> {
    const tools = input.tools.map((tool) => ({ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    return this.call(input.messages, input, tools.length ? { tools } : {});
  }

  private async call(turns: ChatTurn[], input: CallInput, extra: Record<string, unknown>): Promise<{ content: string; toolCalls: ToolCall[] }> {
    if (!this.client) throw new AiNotConfiguredError();
    if (input.usage && !input.background) await this.usage.assertBudget(input.usage.organizationId);
    await this.acquire();
    // One controller per call, tied to the caller's signal, so a long job's signal does not collect a listener per call.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await this.client.chat.completions.create(
        { model: this.config.aiModel!, messages: turns.map(toApiMessage), ...extra, ...(input.maxTokens ? { max_tokens: input.maxTokens } : {}) } as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { signal: controller.signal },
      );
      const message = answer.choices[0]?.message;
      const content = message?.content ?? '';
      const toolCalls = (message?.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : []));
      if (input.usage) {
        const tokens = answer.usage?.total_tokens ?? Math.ceil((turns.reduce((n, m) => n + (m.content?.length ?? 0), 0) + content.length) / 4);
        // The call was made: a failed count is logged, the answer still returned.
        await this.usage.record(input.usage, tokens).catch((error: Error) => this.logger.warn(`AI usage not counted: ${error.message}`));
      }
      return { content, toolCalls };
    } catch (error) {
      throw describe(error);
    } finally {
      input.signal?.removeEventListener('abort', onAbort);
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (this.active < this.config.aiMaxConcurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function toApiMessage(turn: ChatTurn): OpenAI.ChatCompletionMessageParam {
  if (turn.role === 'tool') return { role: 'tool', tool_call_id: turn.toolCallId, content: turn.content };
  if ('toolCalls' in turn) return { role: 'assistant', content: turn.content, tool_calls: turn.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) };
  return { role: turn.role, content: turn.content };
}

function describe(error: unknown): Error {
  if (error instanceof AiProviderError || error instanceof AiNotConfiguredError) return error;
  if (error instanceof OpenAI.APIUserAbortError) return new AiProviderError('the model call was aborted');
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') return new AiProviderError(`the model answered HTTP ${error.status}`);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new AiProviderError('the model did not answer in time');
  // The fetcher's own messages name the host; this one names the setting instead.
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof InvalidError && /larger than/.test(cause.message)) return new AiProviderError('the model answered more than this server reads');
  return new AiProviderError('the model could not be reached (AI_API_URL does not resolve, refused the connection, or is not an allowed address)');
}
