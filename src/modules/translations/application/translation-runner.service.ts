import { EventOutbox } from '../../events/application/event-outbox';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { inLanes } from '../../../core/ai/in-lanes';
import { AiProvider, AiProviderError } from '../../../core/ai/ai-provider';
import { Transactions } from '../../../database/transactions';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { ContentStore } from '../../content/application/content-store.service';
import { documentHash } from '../../content/domain/document-hash';
import { pagesInOrder } from '../../content/domain/pages-in-order';
import { PageNode, RevisionContent } from '../../content/domain/revision-content';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { glossaryInstructions, glossaryPairs, pairsUsedIn } from '../domain/glossary';
import { PageText, pagePrompt, parseAnswer, plainText, sourceHash, wordsOf, writtenHash } from '../domain/page-translation';
import { mask } from '../../content/domain/markdown/protected-markdown';
import { GlossaryRepository } from '../infrastructure/glossary.repository';
import { TranslatedPageOrm } from '../infrastructure/translated-page.orm';
import { TranslationOrm } from '../infrastructure/translation.orm';
import { TranslationsRepository } from '../infrastructure/translations.repository';
import { RunTranslationPayload } from './translation.jobs';

export type RunOutcome = 'superseded' | 'skipped' | 'completed' | 'failed';

/** The head of the result space moved while the run wrote: the job runs again (pages stay cached). */
class ResultSpaceMoved extends Error {}

/**
 * One run of a translation, in the worker. Every page of the source's current revision is
 * translated (title, description, body; code, tags, link targets, URLs and variables kept, see
 * protected-markdown), unless its text, the language, the instructions and the glossary terms it
 * uses (the only ones the model is given) are what was last sent
 * (translated_pages): so a page goes to the model once per change, and a run resumed after a
 * crash does not send finished pages again. Then one revision of the result space holds the whole
 * tree, same page ids and slugs as the source, so links between pages keep pointing at the
 * translated pages.
 *
 * Hand edits: a result page that differs from what the last run wrote was edited by hand and is
 * kept; when its source changed meanwhile, the new translation goes into a change request of the
 * result space instead (one per run), never over the edit.
 *
 * A model failure leaves the result space as it was and records why (`lastError`); the pages
 * translated before it stay cached for the next run.
 */
@Injectable()
export class TranslationRunner {
  private readonly logger = new Logger(TranslationRunner.name);

  constructor(
    private readonly repository: TranslationsRepository,
    private readonly glossary: GlossaryRepository,
    private readonly ai: AiProvider,
    private readonly identity: IdentityService,
    private readonly spaces: SpacesService,
    private readonly content: ContentStore,
    private readonly changeRequests: ChangeRequestsService,
    private readonly indexer: ContentIndexer,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: EventOutbox,
  ) {}

  async run({ translationId, generation }: RunTranslationPayload, signal?: AbortSignal): Promise<RunOutcome> {
    const translation = await this.repository.findById(translationId);
    if (!translation || translation.generation !== generation) return 'superseded';
    if (translation.completedGeneration >= generation) {
      // Written, but the worker died before marking it completed: what is left is the proposal over
      // hand-edited pages (when the run made one: their rows still await it) and the mark.
      if (translation.status === 'running') {
        const user = await this.identity.getUser(translation.requestedBy);
        await this.proposeOverHandEdits(user, translation, await this.repository.awaitingProposal(translation.id));
        await this.complete(translation, generation, { status: 'completed' });
      }
      return 'skipped';
    }
    const started = Date.now();
    const user = await this.identity.getUser(translation.requestedBy);
    let sent: { pages: number; words: number };
    let cache: Map<string, TranslatedPageOrm>;
    let source: RevisionContent;
    try {
      source = await this.sourceContent(user, translation);
      ({ sent, cache } = await this.translatePages(translation, source, signal));
    } catch (error) {
      if (!(error instanceof AiProviderError)) throw error;
      this.logger.warn(`translation ${translationId}: ${error.message}`);
      const written = await this.complete(translation, generation, {
        status: 'completed',
        completedGeneration: generation,
        lastError: `The run stopped: ${error.message}. Pages translated before it are kept; run it again to continue.`,
        updatedAt: this.clock.now(),
      });
      return written ? 'failed' : 'superseded';
    }
    const outcome = await this.writeResult(user, translation, source, cache, sent, started);
    return outcome;
  }

  /** Marks the run completed (while it is still the latest) and announces `translation.completed` with it. */
  private complete(translation: TranslationOrm, generation: number, patch: Partial<TranslationOrm>): Promise<boolean> {
    return this.transactions.run(async (tx) => {
      if (!(await this.repository.updateIfGeneration(translation.id, generation, patch, tx))) return false;
      await this.outbox.record(tx, {
        type: 'translation.completed',
        organizationId: translation.organizationId,
        spaceId: translation.resultSpaceId,
        resource: { kind: 'translation', id: translation.id },
        data: { sourceSpace: translation.sourceSpaceId, language: translation.language, ...(patch.lastError ? { error: patch.lastError } : {}) },
      });
      return true;
    });
  }

  private async sourceContent(user: User, translation: TranslationOrm): Promise<RevisionContent> {
    const { space } = await this.spaces.get(user, translation.sourceSpaceId);
    const revision = await this.content.getInSpace(space.id, space.revisionId);
    if (!revision) throw new Error(`revision ${space.revisionId} of the source space is missing`);
    return revision.content;
  }

  private async translatePages(translation: TranslationOrm, source: RevisionContent, signal?: AbortSignal) {
    const cache = await this.repository.translatedPages(translation.id);
    const instructions = plainText(translation.instructions);
    const terms = glossaryPairs(await this.glossary.all(translation.organizationId), translation.sourceLanguage, translation.language);
    const nodes = pagesInOrder(source.pages);
    const hashes = nodes.map((node) => node.documentHash).filter((hash): hash is string => !!hash);
    const bodies = await this.content.loadDocuments([...new Set(hashes)]);
    const sent = { pages: 0, words: 0 };
    const translateOne = async (node: PageNode) => {
      const text: PageText = { title: node.title, description: node.description ?? null, body: node.documentHash ? (bodies.get(node.documentHash) ?? '') : '' };
      // Terms inside code, link targets or variables are not translated, so they do not count.
      const glossary = terms.length ? glossaryInstructions(pairsUsedIn(`${text.title}\n${text.description ?? ''}\n${mask(text.body).text}`, terms)) : '';
      // A page using no glossary term hashes as before the glossary existed: its cache stays valid.
      const hash = sourceHash(translation.language, glossary ? `${instructions}\n${glossary}` : instructions, text);
      if (cache.get(node.id)?.sourceHash === hash) return;
      const translated = await this.translate(translation, instructions, glossary, text, signal);
      const row = Object.assign(new TranslatedPageOrm(), {
        translationId: translation.id,
        pageId: node.id,
        sourceHash: hash,
        title: translated.title,
        description: translated.description,
        body: translated.body,
        words: wordsOf(text),
        writtenSourceHash: cache.get(node.id)?.writtenSourceHash ?? null,
        writtenHash: cache.get(node.id)?.writtenHash ?? null,
        translatedAt: this.clock.now(),
      });
      await this.repository.saveTranslatedPage(row);
      cache.set(node.id, row);
      sent.pages++;
      sent.words += row.words;
    };
    await inLanes(nodes, this.config.aiMaxConcurrency, translateOne);
    return { sent, cache };
  }

  private async translate(translation: TranslationOrm, instructions: string, glossary: string, text: PageText, signal?: AbortSignal): Promise<PageText> {
    if (!text.title.trim() && !text.body.trim() && !text.description) return text;
    const prompt = pagePrompt(translation.sourceLanguage, translation.language, instructions, text, glossary);
    // A model may drop a placeholder now and then: ask once more before giving up on the page.
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await this.ai.complete({ messages: prompt.messages, json: true, signal, usage: { organizationId: translation.organizationId, feature: 'translation' }, background: true });
      const parsed = parseAnswer(answer, prompt.tokens, text);
      if (parsed) return parsed;
    }
    throw new AiProviderError('the model did not keep the protected parts of a page (code, links, tags) as asked');
  }

  private async writeResult(
    user: User,
    translation: TranslationOrm,
    source: RevisionContent,
    cache: Map<string, TranslatedPageOrm>,
    sent: { pages: number; words: number },
    started: number,
  ): Promise<RunOutcome> {
    const { space: result } = await this.spaces.get(user, translation.resultSpaceId);
    const head = await this.content.getInSpace(result.id, result.revisionId);
    if (!head) throw new Error(`revision ${result.revisionId} of the result space is missing`);
    const current = new Map(pagesInOrder(head.content.pages).map((node) => [node.id, node]));
    const documents = new Map<string, string>();
    const written: Array<{ pageId: string; sourceHash: string; hash: string }> = [];
    const forChangeRequest: TranslatedPageOrm[] = [];

    const build = (nodes: readonly PageNode[]): PageNode[] =>
      nodes.map((node) => {
        const row = cache.get(node.id)!;
        const existing = current.get(node.id);
        const { pages: _children, ...fields } = node;
        if (existing && row.writtenHash && writtenHash(existing) !== row.writtenHash) {
          if (row.writtenSourceHash !== row.sourceHash) forChangeRequest.push(row);
          const { pages: _theirs, ...kept } = existing;
          return { ...kept, pages: build(node.pages) };
        }
        const page: PageNode = { ...fields, title: row.title, pages: build(node.pages) };
        if (row.description !== null) page.description = row.description;
        else delete page.description;
        if (node.documentHash) {
          const hash = documentHash(row.body);
          documents.set(hash, row.body);
          page.documentHash = hash;
        }
        written.push({ pageId: node.id, sourceHash: row.sourceHash, hash: writtenHash(page) });
        return page;
      });
    const pages = build(source.pages);
    const content: RevisionContent = { pages, files: source.files, variables: source.variables, reusableContents: source.reusableContents };
    const unchanged = JSON.stringify(content) === JSON.stringify(head.content);

    const durationMs = Math.max(0, Date.now() - started);
    const outcome = await this.transactions.run(async (tx) => {
      let revisionId = head.id;
      if (!unchanged) {
        const revision = await this.content.commit({ spaceId: result.id, parents: [head.id], type: 'edits', content, documents, createdBy: user.id }, tx);
        if (!(await this.spaces.advanceRevision(result.id, head.id, revision.id, tx))) throw new ResultSpaceMoved('the result space changed during the run; it will be retried');
        await this.indexer.revisionBecameCurrent(result.id, head.id, revision.id, tx);
        revisionId = revision.id;
      }
      await this.repository.markWritten(translation.id, written, tx);
      await this.repository.forgetPages(translation.id, pagesInOrder(source.pages).map((node) => node.id), tx);
      const totalPages = await this.repository.countPages(translation.id, tx);
      const stored = await this.repository.updateIfGeneration(
        translation.id,
        translation.generation,
        {
          // The run's outcome is in: a retry after a crash from here on does not count it again.
          completedGeneration: translation.generation,
          resultRevisionId: revisionId,
          runs: translation.runs + 1,
          totalWords: translation.totalWords + sent.words,
          totalPages,
          totalDurationMs: translation.totalDurationMs + durationMs,
          latestRunDurationMs: durationMs,
          latestPages: sent.pages,
          latestWords: sent.words,
          lastError: null,
          // This run's proposal replaces the last one; until it is opened, none is named.
          ...(forChangeRequest.length > 0 ? { lastChangeRequestId: null } : {}),
          updatedAt: this.clock.now(),
        },
        tx,
      );
      return stored ? ('completed' as const) : ('superseded' as const);
    });
    if (outcome !== 'completed') return outcome;
    // Completed only once the change request is filled, so whoever sees `completed` sees it too.
    await this.proposeOverHandEdits(user, translation, forChangeRequest);
    const finished = await this.complete(translation, translation.generation, { status: 'completed' });
    return finished ? 'completed' : 'superseded';
  }

  /**
   * New translations of pages edited by hand in the result space, as a change request there. A
   * retried attempt finds the one an attempt before it opened and fills it if it is still empty.
   */
  private async proposeOverHandEdits(user: User, translation: TranslationOrm, rows: TranslatedPageOrm[]): Promise<void> {
    if (rows.length === 0) return;
    const changeRequestId = await this.openProposal(user, translation, rows.length);
    const changeRequest = changeRequestId ? await this.changeRequests.findById(changeRequestId) : null;
    if (!changeRequest?.isActive || !changeRequest.isUnedited) return;
    await this.changeRequests.commitEdit(user, translation.resultSpaceId, changeRequest.id, async (head) => {
      const byId = new Map(rows.map((row) => [row.pageId, row]));
      const documents = new Map<string, string>();
      const apply = (nodes: readonly PageNode[]): PageNode[] =>
        nodes.map((node) => {
          const row = byId.get(node.id);
          if (!row) return { ...node, pages: apply(node.pages) };
          const hash = documentHash(row.body);
          documents.set(hash, row.body);
          return { ...node, title: row.title, ...(row.description !== null ? { description: row.description } : {}), ...(node.documentHash ? { documentHash: hash } : {}), pages: apply(node.pages) };
        });
      return { content: { ...head.content, pages: apply(head.content.pages) }, documents };
    });
  }

  /**
   * The change request of this run's proposal: opened and recorded on the translation in one
   * transaction, so an attempt that dies before filling it leaves the next one the same draft. Null
   * when a newer run request superseded this one.
   */
  private openProposal(user: User, translation: TranslationOrm, pages: number): Promise<string | null> {
    return this.transactions.run(async (tx) => {
      const locked = await this.repository.lock(translation.id, tx);
      if (!locked || locked.generation !== translation.generation) return null;
      if (locked.lastChangeRequestId) return locked.lastChangeRequestId;
      const opened = await this.changeRequests.createIn(user, translation.resultSpaceId, `Translation: ${pages} page(s) edited by hand have a new source text`, tx);
      await this.repository.update(translation.id, { lastChangeRequestId: opened.id }, tx);
      return opened.id;
    });
  }
}
