import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidError } from '@app/common';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { toneInstruction } from '../../agents/domain/site-agent-settings';
import { Answered, AskService, Passage, SiteQuestionsService, keywords } from '../../ask';
import { markdownToDocument } from '../../content/domain/markdown';
import { SiteMcpTools, SiteToolbox } from '../../sites/application/site-mcp-tools';
import { VisitorInput } from '../../sites/domain/visitor';
import { renderDocument } from '../domain/document-html';
import { AgentSearchHit, SiteAgentReader, SiteReading } from './site-agent-reader';

const MAX_PASSAGES = 6;
const SECTIONS_PER_PAGE = 2;

/** A reader's question on a published site, ready to answer: the passages their pages give, and how to show them. */
export interface ReaderQuestion {
  reading: SiteReading;
  /** The site's MCP tools, open for this answer when a model may call them: close them after. */
  tools: SiteToolbox | null;
  question: string;
  passages: Passage[];
  guidance: string;
  /** The reader-facing address and title of each page a passage comes from. */
  pages: Map<string, { title: string; url: string }>;
}

/**
 * The Ask box of a published site's pages: the question is answered from what the reader at that
 * address may read (the site's audience, share links and visitor tokens applied; hidden pages
 * left out), as the site's assistant settings say, and recorded for the site in its `site` channel.
 * The answer is shown as HTML the server renders and sanitizes, its sources as the site's own links.
 */
@Injectable()
export class ReaderAsk {
  constructor(
    private readonly sites: SiteAgentReader,
    private readonly agents: SiteAgentsService,
    private readonly ask: AskService,
    private readonly questions: SiteQuestionsService,
    private readonly mcpTools: SiteMcpTools,
  ) {}

  async prepare(siteUrl: URL, visitor: VisitorInput, question: unknown): Promise<ReaderQuestion> {
    if (typeof question !== 'string' || !question.trim() || question.length > 512) throw new InvalidError('question: 1 to 512 characters');
    const reading = await this.sites.openForReader(siteUrl, visitor);
    const assistant = await this.agents.assistantOf(reading.site.id);
    if (!assistant.enabled) throw new ForbiddenError("The site's assistant is turned off");
    let hits = await reading.searchPages(question, 5);
    // A question's words rarely all appear in one page: its longest words, one at a time, then.
    if (hits.length === 0) for (const word of keywords(question)) hits = [...hits, ...(await reading.searchPages(word, 3))];
    const tools = this.ask.modelConfigured ? await this.mcpTools.open(reading.site.id) : null;
    return { reading, tools, question: question.trim(), passages: passagesOf(hits), guidance: [toneInstruction(assistant.tone), assistant.instructions].filter(Boolean).join(' '), pages: new Map(hits.map((h) => [`${h.spaceId}/${h.id}`, { title: h.title, url: h.url }])) };
  }

  siteIdAt(siteUrl: URL): Promise<string | null> {
    return this.sites.siteIdAt(siteUrl);
  }

  budget(organizationId: string): Promise<void> {
    return this.ask.assertBudget(organizationId);
  }

  extractive(asked: ReaderQuestion): ShownAnswer {
    const answer = this.ask.extractive(asked.passages, 'markdown');
    return shown((answer.answer as { markdown: string }).markdown, answer.sources, asked);
  }

  async answer(asked: ReaderQuestion, signal: AbortSignal): Promise<{ shown: ShownAnswer; answered: Answered }> {
    const answered = await this.ask.answer(asked.reading.site.organizationId, asked.question, asked.passages, 'markdown', { signal, guidance: asked.guidance, tools: asked.tools });
    return { shown: shown(answered.markdown, answered.answer.sources, asked), answered };
  }

  async record(asked: ReaderQuestion, answered: Answered): Promise<void> {
    await this.questions.record({
      organizationId: asked.reading.site.organizationId,
      siteId: asked.reading.site.id,
      question: asked.question,
      passages: asked.passages,
      markdown: answered.markdown,
      byModel: answered.byModel,
      channel: { type: 'site' },
      language: 'en',
    });
  }
}

export interface ShownAnswer {
  html: string;
  sources: Array<{ title: string; url: string }>;
}

function shown(markdown: string, sources: Array<{ page: string; space: string }>, asked: ReaderQuestion): ShownAnswer {
  // Links in the answer are rendered only when they are the site's pages; anything else stays text (renderDocument's safe-URL filter).
  const html = renderDocument(markdownToDocument(markdown) as never, { pageHref: () => null, fileHref: () => null });
  return { html, sources: sources.flatMap((s) => asked.pages.get(`${s.space}/${s.page}`) ?? []) };
}

function passagesOf(hits: AgentSearchHit[]): Passage[] {
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const hit of hits) {
    if (seen.has(`${hit.spaceId}/${hit.id}`)) continue;
    seen.add(`${hit.spaceId}/${hit.id}`);
    for (const section of hit.sections.slice(0, SECTIONS_PER_PAGE)) {
      if (passages.length >= MAX_PASSAGES) return passages;
      passages.push({ spaceId: hit.spaceId, revisionId: hit.revisionId, pageId: hit.id, pageTitle: hit.title, sectionId: section.id, sectionTitle: section.title, text: section.body });
    }
  }
  return passages;
}
