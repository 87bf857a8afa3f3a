import { Injectable, Logger } from '@nestjs/common';
import { InvalidError } from '@app/common';
import { AiProvider, ChatTool, ChatTurn } from '../../../core/ai/ai-provider';
import { AiUsage } from '../../../core/ai/ai-usage';
import { markdownToDocument } from '../../content/domain/markdown';
import { User } from '../../identity/domain/user';
import { SearchService, SpaceResult } from '../../search/application/search.service';
import { SiteSearchScope } from '../../sites/domain/search-scope';
import { SpacesService } from '../../spaces/application/spaces.service';
import { PageSource, Passage, citedSources, extractiveAnswer, groundedPrompt, keywords } from '../domain/answer';

export type AnswerFormat = 'document' | 'markdown';

export interface AskAnswer {
  answer: { markdown: string } | { document: unknown };
  sources: PageSource[];
  followupQuestions: string[];
}

/** An answer with what made it: its markdown, whether a model wrote it (else it is extractive), the tools it called. */
export interface Answered {
  answer: AskAnswer;
  markdown: string;
  byModel: boolean;
  toolCalls: UsedTool[];
}

/** A tool of a site's MCP server an answer called. */
export interface UsedTool {
  serverId: string;
  toolName: string;
}

/** Tools the model may call while answering (a site's MCP servers, see SiteMcpTools). */
export interface AskTools {
  tools: Array<ChatTool & { serverId: string; toolName: string }>;
  call(name: string, args: unknown): Promise<string>;
}

const TOOL_ROUNDS = 3;
const TOOL_CALLS_PER_ROUND = 4;

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

const MAX_QUESTION = 512;
const MAX_PASSAGES = 6;
const SECTIONS_PER_PAGE = 2;
/** A model slower than this gives way to the extractive answer. */
const MODEL_WAIT_MS = 20_000;

/**
 * Ask: a question answered from the documentation the caller can read. Retrieval first: the
 * question runs against the organization search (sections of pages, with the caller's access), the
 * best passages go to the model with their page, and its answer cites them. Without a model, or when
 * it fails or is slow, the answer is extractive: the passages themselves, never an error. What the
 * caller may not read is never retrieved, so it never reaches the model or the answer.
 */
@Injectable()
export class AskService {
  private readonly logger = new Logger(AskService.name);

  constructor(
    private readonly search: SearchService,
    private readonly spaces: SpacesService,
    private readonly ai: AiProvider,
    private readonly usage: AiUsage,
  ) {}

  get modelConfigured(): boolean {
    return this.ai.configured;
  }

  /** The passages of the organization's content the caller may read that best answer `question`. */
  retrieve(caller: User, organizationId: string, question: unknown): Promise<Passage[]> {
    return this.passages(caller, organizationId, question, 'query', (query) => this.search.searchOrganization(caller, organizationId, query, { limit: 5 }).then((page) => page.items));
  }

  /** The same, over the spaces of a site's site spaces in `scope` (what the caller can read of them). */
  retrieveInSite(caller: User, organizationId: string, siteId: string, question: unknown, scope: SiteSearchScope): Promise<Passage[]> {
    return this.passages(caller, organizationId, question, 'question', (query) => this.search.searchSite(caller, organizationId, siteId, query, scope, { limit: 5 }).then((page) => page.items));
  }

  /** The same, in one space the caller can read (a change request's conversation). */
  retrieveInSpace(caller: User, organizationId: string, spaceId: string, question: unknown): Promise<Passage[]> {
    return this.passages(caller, organizationId, question, 'question', async (query) => {
      const pages = await this.search.searchSpace(caller, spaceId, query, { limit: 5 });
      return pages.items.length ? [{ id: spaceId, title: '', score: pages.items[0].score, pages: pages.items }] : [];
    });
  }

  private async passages(caller: User, organizationId: string, question: unknown, field: string, search: (query: string) => Promise<SpaceResult[]>): Promise<Passage[]> {
    const query = assertQuestion(question, field);
    let results = await search(query);
    // A question's words rarely all appear in one page: its longest words, one at a time, then.
    if (results.length === 0) {
      for (const word of keywords(query)) results = [...results, ...(await search(word))];
    }
    // A page found by several searches keeps the sections of each, the first search's (the whole
    // question, else its longest word) first, and its best score.
    const byPage = new Map<string, { space: SpaceResult; page: SpaceResult['pages'][number]; sections: SpaceResult['pages'][number]['sections'] }>();
    for (const space of results) {
      for (const page of space.pages) {
        const key = `${space.id}/${page.id}`;
        const seen = byPage.get(key);
        if (!seen) byPage.set(key, { space, page, sections: [...page.sections] });
        else {
          for (const section of page.sections) if (!seen.sections.some((s) => s.id === section.id)) seen.sections.push(section);
          if (page.score > seen.page.score) seen.page = { ...page, sections: seen.sections };
        }
      }
    }
    const pages = [...byPage.values()].sort((a, b) => b.page.score - a.page.score);
    const revisions = await this.revisions(caller, organizationId, results);
    const passages: Passage[] = [];
    for (const { space, page, sections } of pages) {
      for (const section of sections.slice(0, SECTIONS_PER_PAGE)) {
        if (passages.length >= MAX_PASSAGES) break;
        passages.push({ spaceId: space.id, revisionId: revisions.get(space.id) ?? '', pageId: page.id, pageTitle: page.title, sectionId: section.id, sectionTitle: section.title, text: section.body });
      }
    }
    return passages;
  }

  /** The extractive answer, at once. */
  extractive(passages: Passage[], format: AnswerFormat): AskAnswer {
    return this.shaped(extractiveAnswer(passages), citedSources(null, passages), format);
  }

  /** Refuses (429) an organization whose model budget for today is spent, before anything is streamed. */
  async assertBudget(organizationId: string): Promise<void> {
    if (this.ai.configured) await this.usage.assertBudget(organizationId);
  }

  /**
   * The model's answer from the passages, counted for the organization; the extractive one when
   * there is no model or it fails (a budget spent since `assertBudget` included).
   */
  async answer(organizationId: string, question: string, passages: Passage[], format: AnswerFormat, options: { signal?: AbortSignal; guidance?: string; tools?: AskTools | null } = {}): Promise<Answered> {
    const { signal, guidance } = options;
    const tools = options.tools?.tools.length ? options.tools : null;
    const extractive = (): Answered => ({ answer: this.extractive(passages, format), markdown: extractiveAnswer(passages), byModel: false, toolCalls: [] });
    if (!this.ai.configured || (passages.length === 0 && !tools)) return extractive();
    const timeout = AbortSignal.timeout(MODEL_WAIT_MS);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const messages = groundedPrompt(question, passages, guidance, !!tools);
      const { markdown, toolCalls } = tools
        ? await this.withTools(organizationId, messages, tools, bounded)
        : { markdown: await this.ai.complete({ messages, usage: { organizationId, feature: 'ask' }, maxTokens: 800, signal: bounded }), toolCalls: [] };
      if (!markdown.trim()) return extractive();
      return { answer: this.shaped(markdown, citedSources(markdown, passages), format), markdown, byModel: true, toolCalls };
    } catch (error) {
      this.logger.warn(`Ask: the model did not answer (${(error as Error).message}); the answer is extractive`);
      return extractive();
    }
  }

  /**
   * The model's answer when it may call the site's MCP tools: at most three rounds of at most four
   * calls each, their results given back as data; then an answer without tools.
   */
  private async withTools(organizationId: string, messages: ChatTurn[], tools: AskTools, signal: AbortSignal): Promise<{ markdown: string; toolCalls: UsedTool[] }> {
    const turns: ChatTurn[] = [...messages];
    const used: UsedTool[] = [];
    const usage = { organizationId, feature: 'ask' as const };
    for (let round = 0; round < TOOL_ROUNDS; round++) {
      const reply = await this.ai.chat({ messages: turns, tools: tools.tools, usage, maxTokens: 800, signal });
      if (reply.toolCalls.length === 0) return { markdown: reply.content, toolCalls: used };
      const calls = reply.toolCalls.slice(0, TOOL_CALLS_PER_ROUND);
      turns.push({ role: 'assistant', content: reply.content || null, toolCalls: calls });
      for (const call of calls) {
        const tool = tools.tools.find((t) => t.name === call.name);
        if (tool) used.push({ serverId: tool.serverId, toolName: tool.toolName });
        turns.push({ role: 'tool', toolCallId: call.id, content: await tools.call(call.name, parseArguments(call.arguments)) });
      }
    }
    return { markdown: (await this.ai.chat({ messages: turns, tools: [], usage, maxTokens: 800, signal })).content, toolCalls: used };
  }

  private shaped(markdown: string, sources: PageSource[], format: AnswerFormat): AskAnswer {
    return { answer: format === 'markdown' ? { markdown } : { document: markdownToDocument(markdown) }, sources, followupQuestions: [] };
  }

  private async revisions(caller: User, organizationId: string, results: SpaceResult[]): Promise<Map<string, string>> {
    const views = await this.spaces.viewsInOrganization(caller, organizationId, [...new Set(results.map((r) => r.id))]);
    return new Map([...views].map(([id, view]) => [id, view.space.toState().revisionId]));
  }
}

function assertQuestion(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new InvalidError(`${field}: a question`);
  if (value.length > MAX_QUESTION) throw new InvalidError(`${field}: at most ${MAX_QUESTION} characters`);
  return value.trim();
}
