import { InvalidError } from '@app/common';

export const IMPORT_STATUSES = ['pending', 'in-progress', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** `active` in a list filter: pending and in-progress runs. */
export const IMPORT_STATUS_FILTERS = ['active', ...IMPORT_STATUSES] as const;
export type ImportStatusFilter = (typeof IMPORT_STATUS_FILTERS)[number];

export interface ImportSource {
  type: 'website';
  url: string;
}

export interface ImportTarget {
  space: string;
  changeRequest?: string;
  page?: string;
}

export interface ImportedPage {
  id: string;
  sourceURL: string;
}

/** A page the import read but could not write (too complex to parse), and why. */
export interface SkippedPage {
  sourceURL: string;
  reason: string;
}

export interface ImportRunState {
  id: string;
  organizationId: string;
  status: ImportStatus;
  source: ImportSource;
  target: ImportTarget;
  siteId: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  reason: string | null;
  pages: ImportedPage[];
  skipped: SkippedPage[];
}

const FINISHED: ReadonlySet<ImportStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * A content import run: pending until a worker takes it, in progress while it reads the source,
 * then completed (with the pages it wrote), failed (with the reason) or cancelled. A finished run
 * never changes again.
 */
export class ImportRun {
  constructor(private readonly state: ImportRunState) {}

  get id(): string {
    return this.state.id;
  }

  toState(): ImportRunState {
    return this.state;
  }

  get finished(): boolean {
    return FINISHED.has(this.state.status);
  }

  /** Taken by a worker and not finished: the only state a run completes or fails from. */
  get running(): boolean {
    return this.state.status === 'in-progress';
  }

  /** A worker takes the run (again, after a crash: in-progress stays in-progress). */
  begin(now: Date): void {
    if (this.finished) throw new InvalidError(`import run "${this.state.id}" is ${this.state.status}`);
    if (this.state.status === 'pending') this.state.startedAt = now;
    this.state.status = 'in-progress';
    this.state.updatedAt = now;
  }

  complete(now: Date, pages: ImportedPage[], skipped: SkippedPage[] = []): void {
    this.assertRunning();
    Object.assign(this.state, { status: 'completed', pages, skipped, completedAt: now, updatedAt: now });
  }

  fail(now: Date, reason: string): void {
    this.assertRunning();
    Object.assign(this.state, { status: 'failed', reason: reason.slice(0, 500), updatedAt: now });
  }

  /** 400 once the run has finished (GitBook's answer for a run that cannot be cancelled). */
  cancel(now: Date): void {
    if (this.finished) throw new InvalidError(`import run "${this.state.id}" is already ${this.state.status} and cannot be cancelled`);
    Object.assign(this.state, { status: 'cancelled', updatedAt: now });
  }

  private assertRunning(): void {
    if (!this.running) throw new InvalidError(`import run "${this.state.id}" is ${this.state.status}, not in progress`);
  }
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The body of `startImportRun`, checked: a website source and a space target (file sources need GitBook's storage). */
export function parseImportRequest(body: { source?: unknown; target?: unknown; site?: unknown }): { source: ImportSource; target: ImportTarget; site?: string } {
  const source = body.source as Record<string, unknown> | undefined;
  if (!source || typeof source !== 'object' || Array.isArray(source)) throw new InvalidError('source: required, {type: "website", url}');
  if (source.type === 'file') throw new InvalidError('source: "file" imports read files from GitBook\'s upload storage, which this server does not have; import from a website');
  if (source.type !== 'website') throw new InvalidError('source.type: "website"');
  const url = source.url;
  if (typeof url !== 'string' || url.length > 2048) throw new InvalidError('source.url: an http(s) URL of at most 2048 characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidError('source.url: not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidError('source.url: only http and https websites can be imported');
  if (parsed.username || parsed.password) throw new InvalidError('source.url: must not carry credentials');

  const target = body.target as Record<string, unknown> | undefined;
  if (!target || typeof target !== 'object' || Array.isArray(target)) throw new InvalidError('target: required, {space, changeRequest?, page?}');
  const out: ImportTarget = { space: idField(target, 'space', true)! };
  const changeRequest = idField(target, 'changeRequest', false);
  const page = idField(target, 'page', false);
  if (changeRequest) out.changeRequest = changeRequest;
  if (page) out.page = page;
  if (body.site !== undefined && (typeof body.site !== 'string' || !ID.test(body.site))) throw new InvalidError('site: a site id');
  return { source: { type: 'website', url: parsed.toString() }, target: out, ...(body.site ? { site: body.site as string } : {}) };
}

function idField(record: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = record[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !ID.test(value)) throw new InvalidError(`target.${name}: ${required ? 'required, ' : ''}an id`);
  return value;
}
