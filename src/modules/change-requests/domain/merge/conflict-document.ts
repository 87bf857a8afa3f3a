import type { PageFields } from './editable-page-tree';
import type { MergeConflictReason } from './merge-conflict';
import { mergeText } from './text-merge';

/** One side of a conflicting page: absent when that side deleted the page. */
export interface ConflictSide {
  page?: PageFields;
  /** The page's markdown body ('' for a page without a document). */
  text?: string;
}

const REASON_TEXT: Partial<Record<MergeConflictReason, string>> = {
  content: 'both edited the same lines',
  'deleted-and-modified': 'one side deleted it (or a page above it) while the other changed it',
  slug: 'two pages would share a URL',
  'parent-deleted': 'it was put under a page the other side deleted',
  'move-cycle': 'the two sides moved pages into each other',
  parent: 'both moved it, to different places',
};

/** Page fields a notice compares, with their names as readers know them. */
const FIELDS: Array<[keyof PageFields, string]> = [
  ['title', 'title'],
  ['slug', 'slug'],
  ['emoji', 'emoji'],
  ['icon', 'icon'],
  ['description', 'description'],
  ['hidden', 'hidden'],
];

export const CONFLICT_TAB_CHANGE_REQUEST = 'Change request';
export const CONFLICT_TAB_SPACE = 'Space';

/**
 * The document of a page an update could not merge, written so the user can resolve it in any
 * editor: a warning hint naming what conflicted, then the body. When the two bodies still merge
 * line by line (the conflict was about the title, the place...), the body is that merge; when
 * they do not, a tabs block holds the change request's version and the space's version, one tab
 * each, and the user keeps what they want. A side that deleted the page says so in its tab.
 * Plain GitBook markdown: it round-trips through Git Sync and the content API.
 */
export function conflictDocument(base: ConflictSide, ours: ConflictSide, theirs: ConflictSide, reasons: readonly MergeConflictReason[]): string {
  const notice = noticeOf(base, ours, theirs, reasons);
  let body: string;
  if (ours.page && theirs.page) {
    const merged = mergeText(base.text ?? '', ours.text ?? '', theirs.text ?? '');
    body = merged.ok ? merged.text : tabs(ours.text ?? '', theirs.text ?? '');
  } else if (ours.page) {
    body = tabs(ours.text ?? '', '_This page was deleted in the space._');
  } else {
    body = tabs('_This page was deleted in the change request._', theirs.text ?? '');
  }
  return `${notice}\n\n${body.replace(/^\n+/, '')}`;
}

function noticeOf(base: ConflictSide, ours: ConflictSide, theirs: ConflictSide, reasons: readonly MergeConflictReason[]): string {
  const why = [...new Set(reasons.map((reason) => REASON_TEXT[reason]).filter((text): text is string => !!text))];
  const differences: string[] = [];
  if (ours.page && theirs.page) {
    for (const [field, label] of FIELDS) {
      const mine = ours.page[field];
      const yours = theirs.page[field];
      const was = base.page?.[field];
      if (JSON.stringify(mine) === JSON.stringify(yours) || JSON.stringify(yours) === JSON.stringify(was)) continue;
      differences.push(`${label} is ${quote(mine)} here and ${quote(yours)} in the space`);
    }
  }
  const sentences = [
    '**Merge conflict.** This page changed both in this change request and in the space' + (why.length ? ` (${why.join('; ')})` : '') + '.',
    differences.length ? `The change request's version is kept: ${differences.join('; ')}.` : '',
    'Edit the page to keep what you want and remove this notice: the change request lists the page as a conflict, and cannot be merged, until the page is edited.',
  ];
  return `{% hint style="warning" %}\n${sentences.filter(Boolean).join(' ')}\n{% endhint %}`;
}

function tabs(changeRequest: string, space: string): string {
  return [
    '{% tabs %}',
    `{% tab title="${CONFLICT_TAB_CHANGE_REQUEST}" %}`,
    changeRequest.trim() || '_Empty._',
    '{% endtab %}',
    '',
    `{% tab title="${CONFLICT_TAB_SPACE}" %}`,
    space.trim() || '_Empty._',
    '{% endtab %}',
    '{% endtabs %}',
    '',
  ].join('\n');
}

/** A field value as inline text that no markdown, tag or HTML in it can escape from. */
function quote(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'empty';
  const text = String(value).replace(/\s+/g, ' ').slice(0, 200);
  return `"${text.replace(/[\\`*_[\]{}()<>#+\-.!|~&%"]/g, (c) => `\\${c}`)}"`;
}
