// Key/value caches of token prefixes kept across generate calls: a prompt reuses the stored sequence that shares the
// most leading token ids with it (exact id match on the whole prompt's tokenisation, never a separate encode).
import { commonPrefixLength, gatherViews, type KvLayout, type KvView } from './kvCache.ts';

/** One stored sequence: its token ids and its own [1, heads, length, dim] cache. */
export interface PrefixEntry {
  tokens: number[];
  view: KvView;
  /** 'shared': the common prefix of several prompts; 'prompt': a whole prompt kept in case later prompts share it. */
  kind: 'shared' | 'prompt';
  lastUsed: number;
  /** Decoded text (filled on first need), to tell a tokenisation boundary that differs from a prompt that differs. */
  text?: string;
}

interface PrefixMatch {
  entry: PrefixEntry;
  /** Leading token ids the prompt shares with the entry. */
  length: number;
}

/** Stored prefixes within a budget of cached positions; the least recently used go first. */
export class PrefixCache {
  private readonly entries: PrefixEntry[] = [];
  private clock = 0;

  constructor(
    private readonly layouts: KvLayout[],
    /** Most positions kept over all entries. */
    readonly budgetTokens: number,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  get tokens(): number {
    return this.entries.reduce((s, e) => s + e.tokens.length, 0);
  }

  /** The entry sharing the most leading ids with `ids` (ties: the shared kind, then the most recently used). */
  longest(ids: number[]): PrefixMatch | undefined {
    let best: PrefixMatch | undefined;
    for (const entry of this.entries) {
      const length = commonPrefixLength([ids, entry.tokens]);
      if (
        !best ||
        length > best.length ||
        (length === best.length && (entry.kind === 'shared') > (best.entry.kind === 'shared')) ||
        (length === best.length && entry.kind === best.entry.kind && entry.lastUsed > best.entry.lastUsed)
      )
        best = { entry, length };
    }
    return best && best.length > 0 ? best : undefined;
  }

  touch(entry: PrefixEntry): void {
    entry.lastUsed = ++this.clock;
  }

  /**
   * Stores the first tokens.length positions of `view` (copied, so the batch it came from can be dropped). An entry
   * with the same ids is only refreshed. Returns the stored entry (undefined when it alone exceeds the budget).
   */
  add(tokens: number[], view: KvView, kind: PrefixEntry['kind']): PrefixEntry | undefined {
    if (tokens.length === 0 || tokens.length > this.budgetTokens) return undefined;
    const same = this.entries.find((e) => e.tokens.length === tokens.length && commonPrefixLength([e.tokens, tokens]) === tokens.length);
    if (same) {
      if (kind === 'shared') same.kind = 'shared';
      this.touch(same);
      return same;
    }
    const own = gatherViews([view], this.layouts, [tokens.length]);
    const entry: PrefixEntry = { tokens: tokens.slice(), view: { cache: own.cache, row: 0, start: 0, length: tokens.length }, kind, lastUsed: 0 };
    this.touch(entry);
    this.entries.push(entry);
    this.evict(entry);
    return entry;
  }

  private evict(keep: PrefixEntry): void {
    let total = this.tokens;
    while (total > this.budgetTokens) {
      let oldest: PrefixEntry | undefined;
      for (const e of this.entries) if (e !== keep && (!oldest || e.lastUsed < oldest.lastUsed)) oldest = e;
      if (!oldest) return;
      this.entries.splice(this.entries.indexOf(oldest), 1);
      total -= oldest.tokens.length;
    }
  }

  clear(): void {
    this.entries.length = 0;
  }
}
