import { CommitFile, blobId, exportChanges } from './export-changes';
import { TreeEntry, TreeLimitError, blockedPaths, isSafePath, selectFiles } from './repository-tree';

const file = (path: string, size = 1, oid = 'f'.repeat(40)): TreeEntry => ({ mode: '100644', oid, size, path });

describe('repository trees', () => {
  const tree: TreeEntry[] = [
    file('README.md', 10),
    file('docs/README.md', 20),
    { mode: '120000', oid: 'a'.repeat(40), size: 9, path: 'docs/link.md' },
    { mode: '120000', oid: 'b'.repeat(40), size: 9, path: 'linked' },
    { mode: '160000', oid: 'c'.repeat(40), size: 0, path: 'docs/vendor' },
    file('docs/.GIT/config', 5),
  ];

  it('selects the regular files under the project directory and reports symlinks, submodules and unsafe paths', () => {
    const selection = selectFiles(tree, 'docs/', { maxFiles: 10, maxBytes: 100 });
    expect(selection.files.map((f) => f.relative)).toEqual(['README.md']);
    expect(selection.skipped).toEqual([
      { path: 'link.md', reason: 'symlink' },
      { path: 'vendor', reason: 'submodule' },
      { path: '.GIT/config', reason: 'unsafe path' },
    ]);
    // A symlinked project directory holds nothing.
    expect(selectFiles(tree, 'linked/', { maxFiles: 10, maxBytes: 100 }).files).toEqual([]);
  });

  it('refuses from the listing alone when the files or bytes are over the limits', () => {
    expect(() => selectFiles(tree, '', { maxFiles: 1, maxBytes: 100 })).toThrow(TreeLimitError);
    expect(() => selectFiles(tree, '', { maxFiles: 10, maxBytes: 29 })).toThrow(/GIT_SYNC_MAX_BYTES/);
  });

  it('blocks writes onto and through symlinks and submodules', () => {
    const blocked = blockedPaths(tree);
    expect(blocked('linked/README.md')).toBe('symlink');
    expect(blocked('docs/link.md')).toBe('symlink');
    expect(blocked('docs/vendor/x.md')).toBe('submodule');
    expect(blocked('docs/new.md')).toBeNull();
    expect(blocked('../x')).toBe('unsafe path');
  });

  it('knows safe paths', () => {
    for (const path of ['a.md', 'a/b c.md', '.gitbook/assets/x.png', '.github/x']) expect(isSafePath(path)).toBe(true);
    for (const path of ['', '/a', 'a//b', './a', 'a/../b', '.git/config', 'x/.Git/hooks', '.git /x', 'a\\b', 'a\nb']) expect(isSafePath(path)).toBe(false);
  });

  it('changes only files whose bytes differ, removes what the last sync wrote and the space dropped, and skips blocked paths', () => {
    const same = Buffer.from('# Same\n');
    const parent: TreeEntry[] = [
      { ...file('same.md'), oid: blobId(same) },
      { ...file('tool.sh'), mode: '100755' },
      file('gone.md'),
      file('LICENSE'),
      { mode: '120000', oid: 'a'.repeat(40), size: 9, path: 'README.md' },
    ];
    const { changes, skipped } = exportChanges({
      parent,
      files: new Map<string, CommitFile>([
        ['same.md', same],
        ['tool.sh', Buffer.from('echo\n')],
        ['new.md', Buffer.from('# New\n')],
        ['README.md', Buffer.from('# Home\n')],
        ['asset.png', 'keep'],
      ]),
      previous: ['gone.md', 'same.md', 'never-there.md'],
    });
    expect(changes.map((c) => ('remove' in c ? `-${c.path}` : `${c.mode} ${c.path}`))).toEqual(['-gone.md', '100644 new.md', '100755 tool.sh']);
    expect(skipped).toEqual([{ path: 'README.md', reason: 'symlink' }]);
  });

  it('writes a blob already in the repository by its id, unless the parent holds that blob at that path', () => {
    const parent: TreeEntry[] = [{ ...file('.gitbook/assets/same.png'), oid: 'c'.repeat(40) }, { ...file('.gitbook/assets/changed.png'), oid: 'd'.repeat(40) }];
    const { changes } = exportChanges({
      parent,
      files: new Map<string, CommitFile>([
        ['.gitbook/assets/same.png', { oid: 'c'.repeat(40) }],
        ['.gitbook/assets/changed.png', { oid: 'e'.repeat(40) }],
        ['.gitbook/assets/new.png', { oid: 'f'.repeat(40) }],
      ]),
      previous: [],
    });
    expect(changes).toEqual([
      { path: '.gitbook/assets/changed.png', oid: 'e'.repeat(40), mode: '100644' },
      { path: '.gitbook/assets/new.png', oid: 'f'.repeat(40), mode: '100644' },
    ]);
  });

  it('computes git object ids', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(blobId(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});
