import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, InvalidError } from '@app/common';
import { FetchTimeoutError, GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { ProcessError, ProcessErrorCode, SpecProcessingFailure, SpecSource } from '../domain/openapi-spec';

export interface ParsedSpec {
  /** Every file of the source bundled into one document (internal `$ref`s kept, no cycles unrolled). */
  document: Record<string, unknown>;
  /** sha256 of the bundled document: equal documents make one version. */
  hash: string;
  rawText: string;
  rawFormat: 'json' | 'yaml';
  /** What validation found wrong in a document kept anyway. */
  warnings: ProcessError[];
}

/** Parsing one spec may take this long and this much heap (its own thread; the worker process is unaffected). */
const PARSE_TIMEOUT_MS = 120_000;
const PARSE_HEAP_MB = 768;
const WORKER_FILE = join(__dirname, 'spec-parse.worker.mjs');

type FromWorker =
  | { type: 'fetch'; id: number; url: string }
  | { type: 'done'; document: Record<string, unknown>; format: 'json' | 'yaml'; hash: string; warnings?: ProcessError[] }
  | { type: 'failed'; failure: { code: ProcessErrorCode; errors: ProcessError[] } };

/**
 * Fetches, parses, bundles and validates one OpenAPI source. The entrypoint and every file its
 * `$ref`s name are fetched here, through the guarded fetcher (outbound policy, time and size
 * limits, redirects re-checked; at most OPENAPI_MAX_FILES files); parsing runs in a worker thread
 * (spec-parse.worker.mjs) bounded in time and heap. Failures are SpecProcessingFailures with
 * GitBook's error codes.
 */
@Injectable()
export class SpecParser {
  constructor(
    private readonly fetcher: GuardedFetcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async process(source: SpecSource, signal?: AbortSignal): Promise<ParsedSpec> {
    const rawText = 'url' in source ? await this.fetchText(source.url) : source.text;
    const base = 'url' in source ? source.url : 'https://openapi.invalid/inline.json';
    const result = await this.parseInThread(rawText, base, signal);
    return { document: result.document, hash: result.hash, rawText, rawFormat: result.format, warnings: result.warnings ?? [] };
  }

  private parseInThread(text: string, base: string, signal?: AbortSignal): Promise<Extract<FromWorker, { type: 'done' }>> {
    const worker = new Worker(WORKER_FILE, {
      workerData: { text, base, maxFiles: this.config.openapiMaxFiles },
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        void worker.terminate();
        outcome();
      };
      const fail = (message: string) => finish(() => reject(new SpecProcessingFailure('PARSE_ERROR', [{ message }])));
      const timer = setTimeout(() => fail(`processing took longer than ${PARSE_TIMEOUT_MS / 1000} s`), PARSE_TIMEOUT_MS);
      const onAbort = () => finish(() => reject(new Error('processing was aborted')));
      signal?.addEventListener('abort', onAbort);
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'done') finish(() => resolve(message));
        else if (message.type === 'failed') finish(() => reject(new SpecProcessingFailure(message.failure.code, message.failure.errors)));
        else {
          this.fetchText(message.url).then(
            (fetched) => !settled && worker.postMessage({ id: message.id, text: fetched }),
            (error: unknown) => {
              const failure = error instanceof SpecProcessingFailure ? { code: error.code, errors: error.errors } : { code: 'FETCH_ERROR', errors: [{ message: 'could not fetch a referenced file' }] };
              if (!settled) worker.postMessage({ id: message.id, failure });
            },
          );
        }
      });
      worker.on('error', (error: Error & { code?: string }) =>
        fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the spec needs more than ${PARSE_HEAP_MB} MB to process` : 'the spec could not be processed'),
      );
      worker.on('exit', () => fail('the spec could not be processed'));
    });
  }

  private async fetchText(url: string): Promise<string> {
    try {
      const file = await this.fetcher.fetch(url, { maxBytes: this.config.openapiMaxBytes, timeoutMs: this.config.openapiFetchTimeoutMs, maxRedirects: 5 });
      return file.bytes.toString('utf8');
    } catch (error) {
      if (error instanceof FetchTimeoutError) throw new SpecProcessingFailure('FETCH_TIMEOUT', [{ message: `${hostOf(url)}: ${error.message}` }]);
      if (error instanceof InvalidError) throw new SpecProcessingFailure('FETCH_ERROR', [{ message: `${hostOf(url)}: ${error.message}` }]);
      throw error;
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'source';
  }
}
