import { deflateSync } from 'node:zlib';
import request from 'supertest';
import { newId } from '@app/common';
import { TestApp } from '@app/testing';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { FilesService } from '../src/modules/content/application/files.service';
import { documentHash } from '../src/modules/content/domain/document-hash';
import { Revision } from '../src/modules/content/domain/revision';
import { PageNode, RevisionContent, RevisionFile } from '../src/modules/content/domain/revision-content';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';

/**
 * Content written straight through the content store, as authoring will (the authoring API is
 * another module's): a page tree described compactly, committed on top of the space's head.
 */
export interface PageSpec {
  id?: string;
  kind?: PageNode['kind'];
  title: string;
  slug: string;
  body?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  layout?: Record<string, unknown>;
  target?: PageNode['target'];
  computed?: PageNode['computed'];
  pages?: PageSpec[];
}

export function buildContent(pages: PageSpec[], files: RevisionFile[] = [], now = '2026-01-15T10:00:00.000Z') {
  const documents = new Map<string, string>();
  const build = (spec: PageSpec): PageNode => {
    const kind = spec.kind ?? 'document';
    const node: PageNode = {
      id: spec.id ?? newId(),
      kind,
      title: spec.title,
      slug: spec.slug,
      createdAt: now,
      updatedAt: now,
      pages: (spec.pages ?? []).map(build),
    };
    if (kind === 'document') {
      const body = spec.body ?? '';
      documents.set(documentHash(body), body);
      node.documentHash = documentHash(body);
    }
    for (const key of ['description', 'icon', 'emoji', 'hidden', 'layout', 'target', 'computed'] as const) {
      if (spec[key] !== undefined) (node as unknown as Record<string, unknown>)[key] = spec[key];
    }
    return node;
  };
  const content: RevisionContent = { pages: pages.map(build), files, variables: {}, reusableContents: [] };
  return { content, documents };
}

/** Commits the pages (and files) as a new revision of the space and makes it the current one. */
export async function commitContent(t: TestApp, spaceId: string, pages: PageSpec[], files: RevisionFile[] = []): Promise<Revision> {
  const spaces = t.get<SpacesService>(SpacesService);
  const store = t.get<ContentStore>(ContentStore);
  const head = (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id as string;
  const { content, documents } = buildContent(pages, files);
  const revision = await store.commit({ spaceId, parents: [head], type: 'edits', content, documents, createdBy: null });
  if (!(await spaces.advanceRevision(spaceId, head, revision.id))) throw new Error('space head moved');
  return revision;
}

export function storeFile(t: TestApp, bytes: Uint8Array, name: string, contentType: string): Promise<RevisionFile> {
  return t.get<FilesService>(FilesService).store(bytes, name, contentType);
}

/** A real RGB PNG of the given size. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(height * (1 + width * 3)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The bytes behind a download URL, fetched without a token (the route is public). */
export async function download(t: TestApp, url: string) {
  const path = new URL(url).pathname;
  const res = await request(t.app.getHttpServer())
    .get(path)
    .buffer(true)
    .parse((response, callback) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => callback(null, Buffer.concat(chunks)));
    });
  return { status: res.status, body: res.body as Buffer, headers: res.headers as Record<string, string> };
}
