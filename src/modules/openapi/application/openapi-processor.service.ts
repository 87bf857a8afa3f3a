import { EventOutbox } from '../../events/application/event-outbox';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { OpenAPISpecOrm } from '../infrastructure/openapi-spec.orm';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { MAX_KEPT_ERRORS, SpecProcessingFailure, SpecSource } from '../domain/openapi-spec';
import { OpenAPISpecVersionOrm } from '../infrastructure/openapi-spec-version.orm';
import { OpenAPISpecsRepository } from '../infrastructure/openapi-specs.repository';
import { SpecParser } from '../infrastructure/spec-parser';
import { OpenAPIChanges } from './openapi-changes';
import { ProcessOpenAPISpec, ProcessSpecPayload } from './openapi.jobs';
import { ActorContexts } from '../../../core/context/actor-context';

export type ProcessOutcome = 'skipped' | 'superseded' | 'new-version' | 'unchanged' | 'failed';

const REFRESH_BATCH = 500;

/**
 * The worker's side: processes one request for a spec. `pending -> progress -> complete`; the
 * outcome (a new version when the bundled document differs from every earlier one, or the
 * errors) is written in one transaction, and only while the request is still the spec's latest
 * (`generation`), so a newer source is never overwritten by an older run. Safe to run twice:
 * versions are content-addressed and a finished generation is skipped.
 */
@Injectable()
export class OpenAPIProcessor {
  private readonly logger = new Logger(OpenAPIProcessor.name);

  constructor(
    private readonly repository: OpenAPISpecsRepository,
    private readonly parser: SpecParser,
    private readonly transactions: Transactions,
    private readonly jobs: JobOutbox,
    private readonly changes: OpenAPIChanges,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  async process({ specId, generation }: ProcessSpecPayload, signal?: AbortSignal): Promise<ProcessOutcome> {
    const spec = await this.repository.findById(specId);
    if (!spec || spec.generation !== generation) return 'superseded';
    if (spec.processingState === 'complete') return 'skipped';
    // A system job checks no access: it names the spec's organization for the audit log itself.
    ActorContexts.noteOrganization(spec.organizationId);
    await this.repository.updateIfGeneration(specId, generation, { processingState: 'progress' });
    const source: SpecSource = spec.sourceUrl ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' };

    let parsed;
    try {
      parsed = await this.parser.process(source, signal);
    } catch (error) {
      if (!(error instanceof SpecProcessingFailure)) throw error; // unexpected: let the job retry
      const failure = error;
      const written = await this.transactions.run(async (tx) => {
        const stored = await this.repository.updateIfGeneration(
          specId,
          generation,
          {
            processingState: 'complete',
            lastProcessedAt: this.clock.now(),
            lastProcessErrorCode: failure.code,
            lastProcessedErrors: failure.errors.slice(0, MAX_KEPT_ERRORS),
            lastProcessedErrorCount: failure.errors.length,
          },
          tx,
        );
        if (stored) await this.announce(spec, tx, { errorCode: failure.code, errors: failure.errors.length });
        return stored;
      });
      return written ? 'failed' : 'superseded';
    }

    return this.transactions.run(async (tx) => {
      const now = this.clock.now();
      const candidate = Object.assign(new OpenAPISpecVersionOrm(), {
        id: newId(),
        specId,
        contentHash: parsed.hash,
        document: parsed.document,
        rawText: parsed.rawText,
        rawFormat: parsed.rawFormat,
        createdAt: now,
      });
      const version = await this.repository.upsertVersion(candidate, tx);
      const written = await this.repository.updateIfGeneration(
        specId,
        generation,
        {
          processingState: 'complete',
          lastVersionId: version.id,
          lastProcessedAt: now,
          lastProcessErrorCode: null,
          // Kept with a version: warnings (the rules it breaks), not a failure.
          lastProcessedErrors: parsed.warnings.slice(0, MAX_KEPT_ERRORS),
          lastProcessedErrorCount: parsed.warnings.length,
        },
        tx,
      );
      if (!written) return 'superseded';
      if (version.id !== spec.lastVersionId) await this.changes.changed(spec.organizationId, tx);
      await this.announce(spec, tx, { version: version.id, newVersion: version.created });
      return version.created ? 'new-version' : 'unchanged';
    });
  }

  private announce(spec: OpenAPISpecOrm, tx: Tx, data: Record<string, unknown>): Promise<void> {
    return this.outbox.record(tx, { type: 'openapi_spec.processed', organizationId: spec.organizationId, resource: { kind: 'openapi-spec', id: spec.id }, data: { slug: spec.slug, ...data } });
  }

  /** Asks for a new processing of every URL-sourced spec (the refresh schedule). */
  async refreshAll(): Promise<number> {
    let after: string | null = null;
    let count = 0;
    for (;;) {
      const specs = await this.repository.urlSourcedAfter(after, REFRESH_BATCH);
      for (const { id, organizationId } of specs) {
        const staged = await this.transactions.run(async (tx) => {
          const generation = await this.repository.bumpGeneration(id, tx);
          return this.jobs.stage(tx, ProcessOpenAPISpec, generation === null ? [] : [{ payload: { specId: id, generation, organizationId }, options: { jobId: `${id}-${generation}` } }]);
        });
        await this.jobs.release(staged);
        count++;
      }
      if (specs.length < REFRESH_BATCH) break;
      after = specs[specs.length - 1].id;
    }
    this.logger.log(`refresh: ${count} URL-sourced OpenAPI specifications queued`);
    return count;
  }
}
