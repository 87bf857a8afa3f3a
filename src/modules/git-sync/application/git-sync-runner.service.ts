import { EventOutbox } from '../../events/application/event-outbox';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, DomainError, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { gitSyncSummary } from './git-sync-summary';
import { PhaseTimer } from './phase-timer';
import { GitAssets } from './git-assets';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { mergeRevisionContent } from '../../change-requests/domain/merge';
import { allDocuments } from '../../change-requests/domain/merge-inputs';
import { ContentStore } from '../../content/application/content-store.service';
import { slugify } from '../../content/domain/markdown';
import { Revision } from '../../content/domain/revision';
import { RevisionContent, RevisionFile } from '../../content/domain/revision-content';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { onTopOfOriginal, pageFilePaths, writeRepository } from '../domain/format/repository-export';
import { IdSource, ImportedAsset, ImportedRepository, RepositoryFile, isTextFile, parseGitbookConfig, readRepository } from '../domain/format/repository-import';
import { asDirectory } from '../domain/format/repository-paths';
import { NO_SOURCES, SyncedSources } from '../domain/format/synced-sources';
import { RemoteSecrets, displayUrl, redact, secretsOf, storedRemote } from '../domain/remote-url';
import { CommitFile, exportChanges } from '../domain/export-changes';
import { SkippedEntry, TreeEntry, TreeLimitError, selectFiles } from '../domain/repository-tree';
import { GitClient, GitRemote, GitSyncError } from '../infrastructure/git-client';
import { PermanentJobError } from '../../../jobs/job-handler';
import { GitSyncOperationOrm, GitSyncStateOrm } from '../infrastructure/git-sync.orm';
import { GitSyncRepository } from '../infrastructure/git-sync.repository';
import { SecretBox } from '../../../core/secrets/secret-box';
import { ActorContexts } from '../../../core/context/actor-context';

interface Context {
  operation: GitSyncOperationOrm;
  state: GitSyncStateOrm | null;
  target: GitRemote;
  user: User;
  options: { ref: string; commitMessage?: string; repoProjectDirectory?: string; force: boolean; standalone: boolean; repoTreeURL?: string; gitInfo?: { provider?: string; url?: string } };
}

/**
 * Runs Git Sync operations in the worker. Import: fetch, read GitBook's layout, write one
 * revision; when the space changed since the last sync, merge three ways with the last synced
 * content as base: clean merges land, conflicts open a change request with the repository's
 * side (the primary content is untouched); `force` replaces. Export: the same check against the
 * branch, then one commit with the user as author, pushed without force unless `force`.
 * Operations older (`timestamp`) than the last processed one are skipped; a finished operation
 * is not run twice. Nothing is written before the revision's transaction, so a killed worker
 * leaves no half revision.
 */
@Injectable()
export class GitSyncRunner {
  private readonly logger = new Logger(GitSyncRunner.name);

  constructor(
    private readonly repository: GitSyncRepository,
    private readonly git: GitClient,
    private readonly secrets: SecretBox,
    private readonly content: ContentStore,
    private readonly assets: GitAssets,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly identity: IdentityService,
    private readonly indexer: ContentIndexer,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: EventOutbox,
  ) {}

  async run(operationId: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const operation = await this.repository.findOperation(operationId);
    if (!operation) return { skipped: 'unknown operation' };
    if (operation.state === 'success' || operation.state === 'skipped') return operation.result ?? { state: operation.state };
    // The operation's rows name no organization: the audit log files the job's changes in the space's.
    const organizationId = await this.spaces.organizationOf(operation.spaceId);
    if (organizationId) ActorContexts.noteOrganization(organizationId);
    const state = await this.repository.findState(operation.spaceId);
    if (operation.timestamp && state?.lastTimestamp && operation.timestamp < state.lastTimestamp) {
      const result = { skipped: 'older than the last processed operation' };
      await this.repository.updateOperation(operation.id, { state: 'skipped', result, completedAt: this.clock.now() });
      return result;
    }
    const sealed = operation.sealedCredentials ? (JSON.parse(this.secrets.open(operation.sealedCredentials)) as RemoteSecrets) : undefined;
    const remote = storedRemote(operation.url, sealed);
    const options = operation.options as Context['options'];
    const user = (await this.identity.findByIds([operation.requestedBy])).get(operation.requestedBy);
    const target: GitRemote = { remote, spaceId: operation.spaceId, cacheId: String(options['repoCacheID' as never] ?? remote.url) };
    try {
      if (!user) throw new GitSyncError('The user who requested the sync no longer exists', true);
      await this.repository.updateOperation(operation.id, { state: 'running', error: null });
      const context: Context = { operation, state, user, options, target };
      const result = operation.direction === 'import' ? await this.import(context, signal) : await this.export(context, signal);
      await this.finish(operation, { state: 'success', result, completedAt: this.clock.now() });
      return result;
    } catch (error) {
      const message = redact(error instanceof Error ? error.message : String(error), secretsOf(remote));
      // Errors another try cannot fix fail once, and leave no cache behind.
      const permanent = error instanceof TreeLimitError || error instanceof DomainError || (error instanceof GitSyncError && error.permanent);
      if (permanent) await this.git.discard(target).catch(() => undefined);
      await this.finish(operation, { state: 'failure', error: message, completedAt: this.clock.now() }, state === null ? { target, options } : undefined);
      if (permanent) throw new PermanentJobError(message);
      if (error instanceof GitSyncError) throw new GitSyncError(message);
      this.logger.warn(`Git Sync ${operation.direction} of space ${operation.spaceId} failed: ${message}`);
      throw new Error(message);
    }
  }

  /**
   * Records the outcome and announces it (git_sync.completed / git_sync.failed) together. A first
   * sync that failed still links the space to its repository (`firstLink`), so git/info and the
   * space's `gitSync` show the failure.
   */
  private async finish(operation: GitSyncOperationOrm, outcome: Partial<GitSyncOperationOrm>, firstLink?: Pick<Context, 'target' | 'options'>): Promise<void> {
    const organizationId = await this.spaces.organizationOf(operation.spaceId);
    await this.transactions.run(async (tx) => {
      await this.repository.updateOperation(operation.id, outcome, tx);
      if (firstLink && organizationId && !(await this.repository.findState(operation.spaceId, tx))) {
        await this.saveState({ operation, state: null, ...firstLink } as Context, { commit: null, revision: null, paths: [], assets: {}, changeRequest: null }, tx);
      }
      if (!organizationId) return;
      await this.outbox.record(tx, {
        type: outcome.state === 'success' ? 'git_sync.completed' : 'git_sync.failed',
        organizationId,
        spaceId: operation.spaceId,
        resource: { kind: 'space', id: operation.spaceId },
        data: { operation: operation.id, direction: operation.direction, ...(outcome.error ? { error: outcome.error } : {}) },
      });
    });
  }

  // ------------------------------------------------------------------------------------------

  private async import({ operation, state, target, user, options }: Context, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const timer = new PhaseTimer();
    const { repo, commit } = await this.git.fetch(target, options.ref, { signal });
    timer.lap('fetch');
    if (!commit) throw new GitSyncError(`The ref "${options.ref}" does not exist in the repository`, true);
    if (!options.force && !options.standalone && state?.lastCommit === commit && state.url === target.remote.url) {
      return { commit, unchanged: true };
    }
    const { files: tree, skipped } = await this.readProject(target, repo, commit, options, signal);
    timer.lap('read');
    const space = await this.spaces.get(user, operation.spaceId);
    const spaceHead = space.space.revisionId;
    const base = state?.lastRevision ? await this.content.getInSpace(operation.spaceId, state.lastRevision) : null;
    const { content: theirs, documents, imported, assets } = await this.readImport(tree, base ?? (await this.content.getInSpace(operation.spaceId, spaceHead)), state, { target, repo, signal, timer });
    const now = this.clock.now();

    if (options.standalone) {
      const revision = await this.content.commit({ spaceId: operation.spaceId, parents: [spaceHead], type: 'edits', content: theirs, documents, createdBy: user.id });
      return { commit, revision: revision.id, standalone: true, ...skippedResult(skipped) };
    }

    const spaceChanged = !options.force && base !== null && spaceHead !== base.id;
    if (!spaceChanged) {
      const revision = await this.transactions.run(async (tx) => {
        const written = await this.content.commit({ spaceId: operation.spaceId, parents: [spaceHead], type: 'edits', content: theirs, documents, createdBy: user.id }, tx);
        if (!(await this.spaces.advanceRevision(operation.spaceId, spaceHead, written.id, tx))) throw new GitSyncError('The space changed during the import; it will be retried');
        await this.indexer.revisionBecameCurrent(operation.spaceId, spaceHead, written.id, tx);
        await this.saveState({ operation, state, target, user, options }, { commit, revision: written.id, paths: imported.paths, assets, sources: imported.sources, changeRequest: null }, tx);
        return written;
      });
      timer.lap('write');
      return { commit, revision: revision.id, durationsMs: timer.durationsMs, ...skippedResult(skipped) };
    }
    const merged = await this.mergeIntoSpace({ operation, state, target, user, options }, base!, spaceHead, theirs, documents, { commit, paths: imported.paths, assets, sources: imported.sources }, now);
    return { ...merged, ...skippedResult(skipped) };
  }

  /**
   * Both sides changed since `base`: the repository's side (`theirs`) is stored as a revision
   * (the next merge base) and merged three ways into the space head. Clean: the merge lands.
   * Conflicts: a change request holding the repository's side opens against the space head.
   */
  private async mergeIntoSpace(
    context: Context,
    base: Revision,
    spaceHead: string,
    theirs: RevisionContent,
    documents: Map<string, string>,
    sync: { commit: string; paths: string[]; assets: GitSyncStateOrm['assets']; sources: SyncedSources },
    now: Date,
  ): Promise<Record<string, unknown>> {
    const { operation, user } = context;
    const ours = (await this.content.getInSpace(operation.spaceId, spaceHead))!;
    const stored = await this.content.loadDocuments(allDocuments(base.content, ours.content, emptyLike()));
    for (const [hash, body] of documents) stored.set(hash, body);
    const merged = mergeRevisionContent(base.content, ours.content, theirs, stored, now.toISOString());
    if (merged.ok) {
      return this.transactions.run(async (tx) => {
        const snapshot = await this.content.commit({ spaceId: operation.spaceId, parents: [base.id], type: 'edits', content: theirs, documents, createdBy: user.id }, tx);
        const revision = await this.content.commit(
          { spaceId: operation.spaceId, parents: [spaceHead, snapshot.id], type: 'merge', content: merged.content, documents: merged.newDocuments, createdBy: user.id },
          tx,
        );
        if (!(await this.spaces.advanceRevision(operation.spaceId, spaceHead, revision.id, tx))) throw new GitSyncError('The space changed during the sync; it will be retried');
        await this.indexer.revisionBecameCurrent(operation.spaceId, spaceHead, revision.id, tx);
        await this.saveState(context, { commit: sync.commit, revision: snapshot.id, paths: sync.paths, assets: sync.assets, sources: sync.sources, changeRequest: null }, tx);
        return { commit: sync.commit, revision: revision.id, merged: true };
      });
    }
    const opened = await this.conflictChangeRequest(context);
    const { changeRequest, revision } = await this.changeRequests.commitEdit(user, operation.spaceId, opened, async () => ({ content: theirs, documents }));
    await this.saveState(context, { commit: sync.commit, revision: revision.id, paths: sync.paths, assets: sync.assets, sources: sync.sources, changeRequest: changeRequest.id });
    return { commit: sync.commit, changeRequest: changeRequest.id, conflicts: merged.conflicts.map((c) => `${c.item} "${c.title}": ${c.reason}`) };
  }

  /**
   * The change request that holds the repository's side of a conflicting import. Opening it and
   * recording it on the operation commit together, so an attempt that dies after (before the edit
   * or the sync state is written) leaves the next attempt the same draft to fill, not a second one.
   */
  private async conflictChangeRequest({ operation, user }: Context): Promise<string> {
    const seen = typeof operation.result?.changeRequest === 'string' ? operation.result.changeRequest : null;
    const recorded = seen ? await this.changeRequests.findById(seen) : null;
    if (recorded && recorded.spaceId === operation.spaceId && recorded.isActive) return recorded.id;
    const subject = `Git Sync: changes from ${String(operation.options.ref)} that conflict with the space`;
    return this.transactions.run(async (tx) => {
      // Another attempt of this operation may have opened one since this attempt read the operation.
      const locked = await this.repository.lockOperation(operation.id, tx);
      const raced = typeof locked?.result?.changeRequest === 'string' ? locked.result.changeRequest : null;
      if (raced && raced !== seen) return raced;
      const opened = await this.changeRequests.createIn(user, operation.spaceId, subject, tx);
      await this.repository.updateOperation(operation.id, { result: { changeRequest: opened.id } }, tx);
      return opened.id;
    });
  }

  private async export({ operation, state, target, user, options }: Context, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const context = { operation, state, target, user, options };
    // A new branch starts from the repository's default branch, so it keeps what the space does not hold.
    const { repo, commit: remoteHead, base: defaultHead } = await this.git.fetch(target, options.ref, { signal, orDefault: true });
    const projectDirectory = asDirectory(options.repoProjectDirectory ?? '');
    const space = await this.spaces.get(user, operation.spaceId);
    let head = (await this.content.getInSpace(operation.spaceId, space.space.revisionId))!;
    const base = state?.lastRevision ? await this.content.getInSpace(operation.spaceId, state.lastRevision) : null;
    const now = this.clock.now();

    if (!options.force && remoteHead && state?.lastCommit && remoteHead !== state.lastCommit && base) {
      // The branch moved since the last sync: bring its changes in first.
      const { files: tree } = await this.readProject(target, repo, remoteHead, options, signal);
      const { content: theirs, documents, imported, assets } = await this.readImport(tree, base, state, { target, repo, signal });
      const outcome = await this.mergeIntoSpace(context, base, head.id, theirs, documents, { commit: remoteHead, paths: imported.paths, assets, sources: imported.sources }, now);
      if (outcome.changeRequest) return { ...outcome, pushed: false };
      head = (await this.content.getInSpace(operation.spaceId, String(outcome.revision)))!;
      context.state = await this.repository.findState(operation.spaceId);
    }

    const parent = remoteHead ?? defaultHead;
    const parentTree: TreeEntry[] = parent ? await this.git.listTree(target, repo, parent) : [];
    const regular = new Map(parentTree.filter((e) => e.mode === '100644' || e.mode === '100755').map((e) => [e.path, e]));
    const readText = async (path: string) => {
      const entry = regular.get(path);
      return entry ? (await this.git.readBlobs(target, repo, [entry.oid])).get(entry.oid)?.toString('utf8') : undefined;
    };
    const existingConfig = await readText(projectDirectory + '.gitbook.yaml');
    // Unchanged entries of a rewritten table of contents keep their lines.
    const layout = parseGitbookConfig(existingConfig);
    const existingSummary = await readText(projectDirectory + layout.root + layout.summary);

    const documents = await this.content.loadDocuments(allDocuments(head.content, emptyLike(), emptyLike()));
    // The repository's own .gitbook.yaml (root, redirects) survives the export.
    const { files: output, sources } = writeRepository(head.content, documents, existingConfig, context.state?.sources ?? NO_SOURCES, existingSummary);
    const records = new Map(head.content.files.map((f) => [f.id, f]));
    const files = new Map<string, CommitFile>();
    const rewrites = new Map<string, { oid: string; text: string; keepHeader: boolean }>();
    const assets: GitSyncStateOrm['assets'] = {};
    const toWrite: Array<{ path: string; record: RevisionFile }> = [];
    for (const [path, file] of output) {
      if ('keep' in file) {
        files.set(projectDirectory + path, 'keep');
        continue;
      }
      if ('text' in file) {
        const original = file.rewritten ? regular.get(projectDirectory + path) : undefined;
        if (original) rewrites.set(projectDirectory + path, { oid: original.oid, text: file.text, keepHeader: file.keepHeader === true });
        files.set(projectDirectory + path, Buffer.from(file.text, 'utf8'));
        continue;
      }
      const record = records.get(file.fileId)!;
      const known = context.state?.assets[path];
      // An asset the last sync read or wrote at this path, still in the branch: its bytes are not read again.
      const unchanged = known && known.file.storageKey === record.storageKey && regular.has(projectDirectory + path);
      if (unchanged) {
        files.set(projectDirectory + path, 'keep');
        assets[path] = known;
      } else toWrite.push({ path, record });
    }
    // Streamed from storage into the repository's objects: no asset is whole in memory.
    const oids = await this.assets.writeToRepository(repo, toWrite.map((w) => w.record), signal);
    toWrite.forEach(({ path, record }, i) => {
      files.set(projectDirectory + path, { oid: oids[i] });
      assets[path] = { digest: oids[i], file: record as unknown as Record<string, unknown> };
    });
    // Edited pages change only where they were edited: the rest of their file stays as the branch holds it.
    const originals = await this.git.readBlobs(target, repo, [...rewrites.values()].map((r) => r.oid));
    for (const [path, { oid, text, keepHeader }] of rewrites) files.set(path, Buffer.from(onTopOfOriginal(originals.get(oid)!.toString('utf8'), text, keepHeader, path.slice(projectDirectory.length)), 'utf8'));
    const previous = (context.state?.lastPaths ?? []).map((p) => projectDirectory + p);
    const { changes, skipped } = exportChanges({ parent: parentTree, files, previous });
    const written = [...output.keys()].filter((path) => !skipped.some((s) => s.path === projectDirectory + path)).sort();

    let commit: string | null = null;
    if (changes.length > 0) {
      const message = options.commitMessage || 'Update from the docs platform';
      commit = await this.git.writeCommit(target, repo, { parent, changes, message, author: { name: user.displayName, email: user.email }, at: now });
    }
    const pushing = commit ?? (remoteHead ? null : parent);
    if (pushing && !(await this.git.push(target, repo, pushing, options.ref, options.force))) {
      throw new GitSyncError('The branch moved during the export; it will be retried');
    }
    await this.saveState(context, { commit: pushing ?? remoteHead, revision: head.id, paths: written, assets, sources, changeRequest: null });
    return { commit: pushing ?? remoteHead, revision: head.id, pushed: pushing !== null, changed: changes.length, ...skippedResult(skipped) };
  }

  /**
   * The project directory's regular files at `commit`, sizes checked from the listing before any
   * blob is read. Text files (pages, config) are read; every other file stays a blob id, streamed
   * into storage only if it becomes an asset.
   */
  private async readProject(target: GitRemote, repo: string, commit: string, options: Context['options'], signal?: AbortSignal): Promise<{ files: Map<string, RepositoryFile>; skipped: SkippedEntry[] }> {
    const directory = asDirectory(options.repoProjectDirectory ?? '');
    const entries = await this.git.listTree(target, repo, commit);
    const selection = selectFiles(entries, directory, { maxFiles: this.config.gitSyncMaxFiles, maxBytes: this.config.gitSyncMaxBytes });
    const texts = selection.files.filter((f) => isTextFile(f.relative));
    const blobs = await this.git.readBlobs(target, repo, texts.map((f) => f.oid), signal);
    const files = new Map<string, RepositoryFile>();
    for (const file of selection.files) files.set(file.relative, isTextFile(file.relative) ? blobs.get(file.oid)! : { blob: file.oid, size: file.size });
    return { files, skipped: selection.skipped };
  }

  // ------------------------------------------------------------------------------------------

  /** The repository tree as content, ids kept from `previous` by path, unchanged assets reusing their stored bytes. */
  private async readImport(
    tree: Map<string, RepositoryFile>,
    previous: Revision | null,
    state: GitSyncStateOrm | null,
    { target, repo, signal, timer }: { target: GitRemote; repo: string; signal?: AbortSignal; timer?: PhaseTimer },
  ) {
    const keys = previous ? pageFilePaths(previous.content, state?.sources ?? NO_SOURCES).keys : new Map<string, string>();
    const reusable = new Map((previous?.content.reusableContents ?? []).map((r) => [`.gitbook/includes/${slugify(r.title) || 'reusable'}.md`, r.id]));
    const filesByPath = new Map<string, string>();
    for (const [path, entry] of Object.entries(state?.assets ?? {})) filesByPath.set(path, String(entry.file.id));
    for (const file of previous?.content.files ?? []) if (!filesByPath.has(`.gitbook/assets/${file.name}`)) filesByPath.set(`.gitbook/assets/${file.name}`, file.id);
    const ids: IdSource = {
      page: (key) => state?.sources?.keys?.[key] ?? keys.get(key) ?? newId(),
      file: (path) => filesByPath.get(path) ?? newId(),
      reusableContent: (path) => reusable.get(path) ?? newId(),
    };
    const imported: ImportedRepository = readRepository(tree, ids, this.clock.now().toISOString());
    timer?.lap('convert');
    const reuse = (asset: ImportedAsset) => {
      const known = state?.assets[asset.path];
      return known?.digest === asset.digest ? (known.file as unknown as RevisionFile) : undefined;
    };
    const files = await this.assets.store(target, repo, imported.assets, reuse, signal);
    const assets: GitSyncStateOrm['assets'] = {};
    imported.assets.forEach((asset, i) => (assets[asset.path] = { digest: asset.digest, file: files[i] as unknown as Record<string, unknown> }));
    timer?.lap('store files');
    const content: RevisionContent = { pages: imported.pages, files, variables: imported.variables, reusableContents: imported.reusableContents };
    return { content, documents: imported.documents, imported, assets };
  }

  private async saveState(
    { operation, state, target, options }: Context,
    sync: { commit: string | null; revision: string | null; paths: string[]; assets: GitSyncStateOrm['assets']; sources?: SyncedSources; changeRequest: string | null },
    tx?: Parameters<GitSyncRepository['saveState']>[1],
  ): Promise<void> {
    const next = Object.assign(new GitSyncStateOrm(), state ?? {}, {
      spaceId: operation.spaceId,
      url: target.remote.url,
      ref: options.ref,
      treeUrl: displayUrl(options.repoTreeURL) ?? displayUrl(options.gitInfo?.url) ?? state?.treeUrl ?? null,
      provider: options.gitInfo?.provider ?? state?.provider ?? null,
      lastCommit: sync.commit,
      lastRevision: sync.revision,
      lastPaths: sync.paths,
      assets: sync.assets,
      sources: sync.sources ?? state?.sources ?? null,
      lastTimestamp: operation.timestamp ?? state?.lastTimestamp ?? null,
      lastOperation: operation.id,
      changeRequest: sync.changeRequest,
      updatedAt: this.clock.now(),
    });
    // The space's `gitSync` field changes with the link it shows.
    const record = async (t: Tx) => {
      await this.repository.saveState(next, t);
      await this.spaces.recordGitSync(operation.spaceId, gitSyncSummary(next), t);
    };
    await (tx ? record(tx) : this.transactions.run(record));
  }
}

/** The entries an operation did not follow (symlinks, submodules, unsafe paths), when there are any. */
function skippedResult(skipped: SkippedEntry[]): { skipped?: SkippedEntry[] } {
  return skipped.length ? { skipped: skipped.slice(0, 100) } : {};
}

function emptyLike(): RevisionContent {
  return { pages: [], files: [], variables: {}, reusableContents: [] };
}
