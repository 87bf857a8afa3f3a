import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { AiNotConfiguredError, AiProvider } from '../../../core/ai/ai-provider';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { AccessService } from '../../access/application/access.service';
import { atLeast } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { emptyRichTextDocument, parseRichTextDocument } from '../../organizations/domain/rich-text';
import { SpacesService } from '../../spaces/application/spaces.service';
import { TRANSLATION_LANGUAGES, TranslationLanguage } from '../../spaces/domain/space-settings';
import { TranslationOrm } from '../infrastructure/translation.orm';
import { TranslationsRepository } from '../infrastructure/translations.repository';
import { RunTranslation } from './translation.jobs';

export interface TranslationView {
  translation: TranslationOrm;
  canEdit: boolean;
}

export interface CreateTranslationInput {
  language: unknown;
  source: { space?: unknown; language?: unknown };
  instructions?: unknown;
}

/**
 * Translations of spaces. Members read them (guests: 404); creating one (which creates its
 * result space), changing instructions, deleting and running need the `create` organization role.
 * A run is a worker job (TranslationRunner); without a configured model it is refused (503) and
 * nothing changes.
 */
@Injectable()
export class TranslationsService {
  constructor(
    private readonly access: AccessService,
    private readonly spaces: SpacesService,
    private readonly repository: TranslationsRepository,
    private readonly outbox: JobOutbox,
    private readonly transactions: Transactions,
    private readonly ai: AiProvider,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<TranslationView>> {
    const canEdit = await this.readAccess(caller, organizationId);
    const page = await this.repository.list(organizationId, request);
    return { ...page, items: page.items.map((translation) => ({ translation, canEdit })) };
  }

  async get(caller: User, organizationId: string, id: string): Promise<TranslationView> {
    const canEdit = await this.readAccess(caller, organizationId);
    return { translation: await this.find(organizationId, id), canEdit };
  }

  /**
   * The source space must be one the caller can read, in this organization (400 otherwise; 404
   * when they cannot see it). The result space is created beside it (same collection), titled
   * with the language, in the same transaction as the translation.
   */
  async create(caller: User, organizationId: string, input: CreateTranslationInput): Promise<TranslationView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const language = assertLanguage(input.language, 'language');
    if (!input.source || typeof input.source.space !== 'string') throw new InvalidError('source.space: required');
    const sourceLanguage = assertLanguage(input.source.language, 'source.language');
    if (sourceLanguage === language) throw new InvalidError('language: must differ from source.language');
    const instructions = (input.instructions === undefined ? emptyRichTextDocument() : parseRichTextDocument(input.instructions, 'instructions')) as unknown as Record<string, unknown>;
    const source = await this.spaces.get(caller, input.source.space);
    if (source.space.organizationId !== organizationId) throw new InvalidError('source.space: not a space of this organization');
    const now = this.clock.now();
    let translation: TranslationOrm | undefined;
    await this.spaces.create(
      caller,
      organizationId,
      { title: `${source.space.title} (${language})`.slice(0, 50), parent: source.space.parentId ?? undefined, language, empty: true },
      async (space, tx) => {
        translation = Object.assign(new TranslationOrm(), {
          id: newId(),
          organizationId,
          sourceSpaceId: source.space.id,
          sourceLanguage,
          language,
          instructions,
          resultSpaceId: space.id,
          resultRevisionId: space.revisionId,
          status: 'pending',
          runs: 0,
          totalWords: 0,
          totalPages: 0,
          totalDurationMs: 0,
          latestRunDurationMs: 0,
          latestPages: 0,
          latestWords: 0,
          lastError: null,
          lastChangeRequestId: null,
          generation: 0,
          completedGeneration: 0,
          requestedBy: caller.id,
          runStartedAt: null,
          createdBy: caller.id,
          createdAt: now,
          updatedAt: now,
        });
        await this.repository.insert(translation, tx);
      },
    );
    return { translation: translation!, canEdit: true };
  }

  async updateInstructions(caller: User, organizationId: string, id: string, instructions: unknown): Promise<TranslationView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const translation = await this.find(organizationId, id);
    const parsed = parseRichTextDocument(instructions, 'instructions') as unknown as Record<string, unknown>;
    const updatedAt = this.clock.now();
    await this.repository.update(id, { instructions: parsed, updatedAt });
    return { translation: Object.assign(translation, { instructions: parsed, updatedAt }), canEdit: true };
  }

  /** Deletes the translation (true) or finds none (false). Its result space stays, as an ordinary space. */
  async delete(caller: User, organizationId: string, id: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    return this.repository.delete(organizationId, id);
  }

  /** Queues a run (`running`); 503 without a configured model, and then nothing changes. */
  async run(caller: User, organizationId: string, id: string): Promise<void> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    await this.find(organizationId, id);
    if (!this.ai.configured) throw new AiNotConfiguredError();
    const staged = await this.transactions.run(async (tx) => {
      const generation = await this.repository.requestRun(id, caller.id, this.clock.now(), tx);
      if (generation === null) throw NotFoundError.of('Translation', id);
      return this.outbox.stage(tx, RunTranslation, [{ payload: { translationId: id, generation }, options: { jobId: `${id}-${generation}` } }]);
    });
    await this.outbox.release(staged);
  }

  private async readAccess(caller: User, organizationId: string): Promise<boolean> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
    return atLeast(context.orgRole, 'create');
  }

  private async find(organizationId: string, id: string): Promise<TranslationOrm> {
    const translation = await this.repository.find(organizationId, id);
    if (!translation) throw NotFoundError.of('Translation', id);
    return translation;
  }
}

function assertLanguage(value: unknown, field: string): TranslationLanguage {
  if (!TRANSLATION_LANGUAGES.includes(value as TranslationLanguage)) throw new InvalidError(`${field}: must be one of ${TRANSLATION_LANGUAGES.join(', ')}`);
  return value as TranslationLanguage;
}
