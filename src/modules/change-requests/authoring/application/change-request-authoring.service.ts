import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, newId } from '@app/common';
import { ContentStore } from '../../../content/application/content-store.service';
import { FilesService } from '../../../content/application/files.service';
import { imageDimensions } from '../../../content/domain/image-dimensions';
import { Revision } from '../../../content/domain/revision';
import { RevisionContent, RevisionFile } from '../../../content/domain/revision-content';
import { User } from '../../../identity/domain/user';
import { SpaceView } from '../../../spaces/application/spaces.service';
import { ChangeRequestsService } from '../../application/change-requests.service';
import { ChangeRequest } from '../../domain/change-request';
import { ApplyChangesResult, PageOutcome, applyChanges } from '../domain/apply-changes';
import { ContentChange, FileInput } from '../domain/changes';
import { PageTree } from '../domain/page-tree';
import { GuardedFetcher } from '../../../../core/outbound/guarded-fetcher';

/** What a batch of content changes did, for the presenter. */
export interface ContentUpdateOutcome {
  changeRequest: ChangeRequest;
  space: SpaceView;
  revision: Revision;
  pages: PageOutcome[];
  insertedFiles: RevisionFile[];
}

/** A file of an `insert_files` change, with its bytes, before it is stored. */
interface Upload {
  file: RevisionFile;
  bytes: Uint8Array;
}

const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
const TYPES_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
  zip: 'application/zip',
};
/** URL fetches running at once for one batch. */
const FETCH_CONCURRENCY = 4;

/**
 * Authoring a change request's content (GitBook's `updateChangeRequestContent`): a batch of
 * up to 50 changes applied as ONE new revision of the change request, or none at all.
 *
 * Who may: `edit` on the space (403), a space that is not `locked` (423), a change request that
 * is open or draft (409); checked before any file is fetched, and again by commitEdit in the
 * committing transaction. File bytes (`base64` or a public `url`) are read first, then the
 * changes are applied to the head (pure domain), then — only when every change is valid — the
 * bytes are stored and the revision committed. A batch that fails leaves nothing behind but
 * unreferenced stored bytes when the commit itself loses a race (409).
 */
@Injectable()
export class ChangeRequestAuthoringService {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentStore,
    private readonly files: FilesService,
    private readonly fetcher: GuardedFetcher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `ifMatch`: the change request's `If-Match` tag; when it moved on since, 412 and nothing is written. */
  async updateContent(caller: User, spaceId: string, idOrNumber: string, changes: ContentChange[], ifMatch?: string): Promise<ContentUpdateOutcome> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    this.changeRequests.assertCanEdit(space);
    changeRequest.assertActive('edited');
    const uploads = await this.readFiles(changes);

    let applied: ApplyChangesResult | undefined;
    const { changeRequest: saved, revision } = await this.changeRequests.commitEdit(caller, spaceId, changeRequest.id, async (head) => {
      const revisions = await this.revertTargets(spaceId, changes, changeRequest.revisionMergedAncestor, head);
      const documents = await this.content.loadDocuments(blockRevertHashes(changes, head.content, revisions));
      applied = applyChanges({
        content: head.content,
        documents,
        changes,
        baseRevisionId: changeRequest.revisionMergedAncestor,
        revisions,
        files: new Map([...uploads].map(([index, list]) => [index, list.map((upload) => upload.file)])),
        now: this.clock.now().toISOString(),
        newId: () => newId(),
      });
      await this.storeFiles(uploads);
      return { content: applied.content, documents: applied.documents };
    }, ifMatch);
    return { changeRequest: saved, space, revision, pages: applied!.pages, insertedFiles: applied!.insertedFiles };
  }

  /** The bytes of every `insert_files` file, by change index, with their RevisionFile (id assigned, not stored yet). */
  private async readFiles(changes: ContentChange[]): Promise<Map<number, Upload[]>> {
    const jobs: Array<{ index: number; position: number; input: FileInput }> = [];
    changes.forEach((change, index) => {
      if (change.operation === 'insert_files') change.files.forEach((input, position) => jobs.push({ index, position, input }));
    });
    const uploads = new Map<number, Upload[]>();
    if (jobs.length === 0) return uploads;
    const results: Upload[] = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await this.readFile(jobs[i].input, `changes[${jobs[i].index}].files[${jobs[i].position}]`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, jobs.length) }, worker));
    jobs.forEach((job, i) => {
      const list = uploads.get(job.index) ?? [];
      list[job.position] = results[i];
      uploads.set(job.index, list);
    });
    return uploads;
  }

  private async readFile(input: FileInput, path: string): Promise<Upload> {
    let bytes: Uint8Array;
    let fetchedType: string | undefined;
    if (input.source.kind === 'base64') {
      bytes = Buffer.from(input.source.base64, 'base64');
    } else {
      try {
        const fetched = await this.fetcher.fetch(input.source.url);
        bytes = fetched.bytes;
        fetchedType = fetched.contentType;
      } catch (error) {
        if (error instanceof InvalidError) throw new InvalidError(`${path}.url: ${error.message}`);
        throw error;
      }
    }
    const contentType = input.contentType ?? (fetchedType && CONTENT_TYPE.test(fetchedType) ? fetchedType : guessType(input.name));
    const dimensions = imageDimensions(bytes);
    return {
      bytes,
      file: { id: newId(), name: input.name.trim(), contentType, size: bytes.byteLength, ...(dimensions ? { dimensions } : {}), storageKey: '' },
    };
  }

  /** Stores the bytes and completes each RevisionFile (the objects the new content holds). */
  private async storeFiles(uploads: Map<number, Upload[]>): Promise<void> {
    for (const list of uploads.values()) {
      for (const { file, bytes } of list) {
        const stored = await this.files.store(bytes, file.name, file.contentType);
        file.storageKey = stored.storageKey;
        file.size = stored.size;
        if (stored.dimensions) file.dimensions = stored.dimensions;
      }
    }
  }

  /** The contents `revert_page` may revert to: the base (unless unused) and every named revision of the space. */
  private async revertTargets(spaceId: string, changes: ContentChange[], baseRevisionId: string, head: Revision): Promise<Map<string, RevisionContent>> {
    const ids = new Set<string>();
    for (const change of changes) if (change.operation === 'revert_page') ids.add(change.revision ?? baseRevisionId);
    const revisions = new Map<string, RevisionContent>();
    for (const id of ids) {
      const revision = id === head.id ? head : await this.content.getInSpace(spaceId, id);
      if (revision) revisions.set(id, revision.content);
    }
    return revisions;
  }
}

/** Hashes of the bodies `revert_page` with `block` reads: the page's, now and in every target revision. */
function blockRevertHashes(changes: ContentChange[], head: RevisionContent, revisions: Map<string, RevisionContent>): string[] {
  const pages = new Set<string>();
  for (const change of changes) if (change.operation === 'revert_page' && change.block) pages.add(change.page);
  if (pages.size === 0) return [];
  const hashes = new Set<string>();
  for (const content of [head, ...revisions.values()]) {
    const tree = new PageTree(content.pages);
    for (const id of pages) {
      const hash = tree.find(id)?.node.documentHash;
      if (hash) hashes.add(hash);
    }
  }
  return [...hashes];
}

function guessType(name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && TYPES_BY_EXTENSION[extension]) || 'application/octet-stream';
}
