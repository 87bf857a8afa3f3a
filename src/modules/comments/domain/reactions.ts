import { InvalidError } from '@app/common';
import { normalizeEmoji } from './emoji';

/** Most emojis one request may add (or remove). */
export const MAX_REACTIONS_PER_REQUEST = 20;

/** One user's reaction to a comment or a reply. */
export interface ReactionRecord {
  emoji: string;
  userId: string;
  reactedAt: Date;
}

/** GitBook's `EmojiReaction`: the users who reacted with one emoji, in the order they did. */
export interface ReactionGroup {
  emoji: string;
  count: number;
  users: { userId: string; reactedAt: Date }[];
}

export interface ReactionChanges {
  added: string[];
  removed: string[];
}

/**
 * `addedReactions` and `removedReactions` of an update, normalized (duplicates collapsed, code
 * points turned into characters). An emoji both added and removed is ambiguous: 400.
 */
export function parseReactionChanges(added: readonly unknown[] | undefined, removed: readonly unknown[] | undefined): ReactionChanges {
  const changes = { added: normalizeAll(added ?? [], 'addedReactions'), removed: normalizeAll(removed ?? [], 'removedReactions') };
  const both = changes.added.filter((emoji) => changes.removed.includes(emoji));
  if (both.length > 0) throw new InvalidError(`addedReactions, removedReactions: cannot both add and remove ${both.join(' ')}`);
  return changes;
}

export function hasReactionChanges(changes: ReactionChanges): boolean {
  return changes.added.length > 0 || changes.removed.length > 0;
}

function normalizeAll(values: readonly unknown[], field: string): string[] {
  if (values.length > MAX_REACTIONS_PER_REQUEST) throw new InvalidError(`${field}: at most ${MAX_REACTIONS_PER_REQUEST} emojis per request`);
  const out: string[] = [];
  values.forEach((value, i) => {
    const emoji = normalizeEmoji(value);
    if (emoji === null) throw new InvalidError(`${field}[${i}]: must be an emoji (a character such as "👍" or its code points such as "1f44d")`);
    if (!out.includes(emoji)) out.push(emoji);
  });
  return out;
}

/** Groups reactions by emoji: groups in the order of their first reaction, users in the order they reacted. */
export function groupReactions(records: readonly ReactionRecord[]): ReactionGroup[] {
  const sorted = [...records].sort((a, b) => a.reactedAt.getTime() - b.reactedAt.getTime() || a.userId.localeCompare(b.userId));
  const groups = new Map<string, ReactionGroup>();
  for (const record of sorted) {
    let group = groups.get(record.emoji);
    if (!group) {
      group = { emoji: record.emoji, count: 0, users: [] };
      groups.set(record.emoji, group);
    }
    group.users.push({ userId: record.userId, reactedAt: record.reactedAt });
    group.count = group.users.length;
  }
  return [...groups.values()];
}
