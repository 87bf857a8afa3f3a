import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, DomainError, NotFoundError } from '@app/common';
import { inLanes } from '../../../core/ai/in-lanes';
import { AiProvider, AiProviderError } from '../../../core/ai/ai-provider';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { ContentStore } from '../../content/application/content-store.service';
import { documentHash } from '../../content/domain/document-hash';
import { pagesInOrder } from '../../content/domain/pages-in-order';
import { PageNode } from '../../content/domain/revision-content';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { CheckedText, checkHash, checkPrompt, parseCheckAnswer, rulesText } from '../domain/page-check';
import { StyleguideCheckedPageOrm } from '../infrastructure/styleguide-checked-page.orm';
import { StyleguideRunsRepository } from '../infrastructure/styleguide-runs.repository';
import { CheckStyleguidePayload } from './styleguide.jobs';

export type CheckOutcome = 'skipped' | 'completed' | 'failed';

/**
 * One space's check of a style guide run, in the worker, acting for the member who started the
 * run. Every document page of the change request's head goes to the model with the style guide's
 * rules (code, links and tags protected), unless that page and those rules are what it last sent
 * (styleguide_checked_pages): a page goes to the model once per change, and a check resumed after a
 * crash does not send finished pages again. Then one edit of the change request applies the
 * revisions, to pages nobody changed since they were read; `changedPages` counts the pages whose
 * revision the head holds. A page the model answers badly for is left as it is and counted
 * (`unrevisedPages`); pages past STYLEGUIDE_MAX_PAGES, in tree order, are not sent and are counted
 * (`uncheckedPages`). A model failure ends the check without touching the change request; its
 * finished pages stay cached.
 */
@Injectable()
export class StyleguideChecker {
  private readonly logger = new Logger(StyleguideChecker.name);

  constructor(
    private readonly repository: StyleguideRunsRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly spaces: SpacesService,
    private readonly content: ContentStore,
    private readonly identity: IdentityService,
    private readonly ai: AiProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check({ changeRequestId, runId }: CheckStyleguidePayload, signal?: AbortSignal): Promise<CheckOutcome> {
    const run = await this.repository.findById(runId);
    const changeRequest = await this.changeRequests.findById(changeRequestId);
    if (!run || !changeRequest || !changeRequest.isActive || !changeRequest.styleguide) return 'skipped';
    const user = await this.identity.getUser(run.createdBy);
    const rules = await this.rules(user, run.styleguideSpaceId);
    if (rules === null) return 'skipped';
    const head = await this.content.getInSpace(changeRequest.spaceId, changeRequest.revision);
    if (!head) return 'skipped';
    const all = await this.documentPages(head.content.pages);
    const pages = all.slice(0, this.config.styleguideMaxPages);
    let cache: Map<string, StyleguideCheckedPageOrm>;
    try {
      cache = await this.checkPages(changeRequestId, rules, pages, signal);
    } catch (error) {
      if (!(error instanceof AiProviderError)) throw error;
      this.logger.warn(`style guide check of change request ${changeRequestId}: ${error.message}`);
      return 'failed';
    }
    const proposed = (id: string, text: CheckedText) => {
      const row = cache.get(id);
      return row && row.changed && row.inputHash === checkHash(rules, text) ? row : null;
    };
    if (pages.some(({ node, text }) => proposed(node.id, text))) {
      try {
        await this.changeRequests.commitEdit(user, changeRequest.spaceId, changeRequest.id, async (current) => {
          // The head as it is now: pages edited since they were read keep their edits.
          const now = new Map((await this.documentPages(current.content.pages)).map((page) => [page.node.id, page.text]));
          const documents = new Map<string, string>();
          // Untouched subtrees stay the stored objects, so the new revision shares them.
          const apply = (nodes: PageNode[]): PageNode[] => {
            let touched = false;
            const out = nodes.map((node) => {
              const text = now.get(node.id);
              const row = text ? proposed(node.id, text) : null;
              const children = apply(node.pages);
              if (!row && children === node.pages) return node;
              touched = true;
              if (!row) return { ...node, pages: children };
              const hash = documentHash(row.body);
              documents.set(hash, row.body);
              return { ...node, title: row.title, documentHash: hash, updatedAt: this.clock.now().toISOString(), pages: children };
            });
            return touched ? out : nodes;
          };
          return { content: { ...current.content, pages: apply(current.content.pages) }, documents };
        });
      } catch (error) {
        // Merged or archived while the check ran: there is nothing left to propose fixes in.
        if (error instanceof DomainError && !(await this.changeRequests.findById(changeRequestId))?.isActive) return 'skipped';
        throw error;
      }
    }
    const after = await this.changeRequests.findById(changeRequestId);
    const final = after ? await this.content.getInSpace(after.spaceId, after.revision) : null;
    const finalPages = final ? await this.documentPages(final.content.pages) : [];
    await this.changeRequests.recordStyleguideCheck(changeRequestId, {
      changedPages: finalPages.filter(({ node, text }) => holdsRevision(cache.get(node.id), text)).length,
      unrevisedPages: pages.filter(({ node, text }) => keptUnrevised(cache.get(node.id), rules, text)).length,
      uncheckedPages: all.length - pages.length,
    });
    return 'completed';
  }

  /** The style guide's rules, from its space's current pages; null when the space is gone. */
  private async rules(user: User, spaceId: string): Promise<string | null> {
    try {
      const { space } = await this.spaces.get(user, spaceId);
      const revision = await this.content.getInSpace(space.id, space.revisionId);
      if (!revision) return null;
      return rulesText((await this.documentPages(revision.content.pages)).map(({ text }) => text));
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** Document pages in tree order, with their text. */
  private async documentPages(nodes: readonly PageNode[]): Promise<Array<{ node: PageNode; text: CheckedText }>> {
    const documents = pagesInOrder(nodes).filter((node) => node.kind === 'document');
    const bodies = await this.content.loadDocuments([...new Set(documents.map((node) => node.documentHash).filter((hash): hash is string => !!hash))]);
    return documents.map((node) => ({ node, text: { title: node.title, body: node.documentHash ? (bodies.get(node.documentHash) ?? '') : '' } }));
  }

  /** Sends the pages not checked against these rules yet, as many at once as the provider allows. */
  private async checkPages(changeRequestId: string, rules: string, pages: Array<{ node: PageNode; text: CheckedText }>, signal?: AbortSignal) {
    const cache = await this.repository.checkedPages(changeRequestId);
    const rulesHash = checkHash(rules, { title: '', body: '' });
    const checkOne = async ({ node, text }: { node: PageNode; text: CheckedText }) => {
      const inputHash = checkHash(rules, text);
      const known = cache.get(node.id);
      if (known?.inputHash === inputHash || (!text.body.trim() && !text.title.trim())) return;
      // Already the revision these rules gave (a check resumed after it was applied): not sent again.
      if (known && known.rulesHash === rulesHash && known.title === text.title && known.body === text.body) return;
      const answer = await this.revise(rules, text, signal);
      const revised = answer ?? text;
      const changed = revised.title !== text.title || revised.body !== text.body;
      const row = Object.assign(new StyleguideCheckedPageOrm(), {
        changeRequestId,
        pageId: node.id,
        inputHash,
        rulesHash,
        title: revised.title,
        body: revised.body,
        changed,
        unrevised: answer === null,
        checkedAt: this.clock.now(),
      });
      await this.repository.saveCheckedPage(row);
      cache.set(node.id, row);
    };
    await inLanes(pages, this.config.aiMaxConcurrency, checkOne);
    return cache;
  }

  /** The model's revision of a page; null (the page stays as it is) when it twice fails to keep the protected parts. */
  private async revise(rules: string, text: CheckedText, signal?: AbortSignal): Promise<CheckedText | null> {
    const prompt = checkPrompt(rules, text);
    for (let attempt = 0; attempt < 2; attempt++) {
      const parsed = parseCheckAnswer(await this.ai.complete({ messages: prompt.messages, json: true, signal }), prompt.tokens);
      if (parsed) return parsed;
    }
    return null;
  }
}

/** Whether the page holds the revision its check proposed, and that revision changed something. */
function holdsRevision(row: StyleguideCheckedPageOrm | undefined, text: CheckedText): boolean {
  return !!row && row.changed && row.title === text.title && row.body === text.body;
}

/** Whether the model's answers for the page, as it was sent with these rules, were unusable. */
function keptUnrevised(row: StyleguideCheckedPageOrm | undefined, rules: string, text: CheckedText): boolean {
  return !!row && row.unrevised && row.inputHash === checkHash(rules, text);
}
