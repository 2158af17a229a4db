// A scratch n-gram trie for chrF and BLEU: an n-gram's id is found from its (n-1)-gram prefix id and its last symbol,
// so n-grams are compared as small integers instead of substrings. Open addressing on typed arrays, emptied in O(1)
// by a generation stamp. Each user module owns one instance and finishes with it before the next call (all synchronous).

export class NgramTrie {
  private bits = 10;
  private parents = new Int32Array(1 << 10);
  private symbols = new Int32Array(1 << 10);
  private ids = new Int32Array(1 << 10);
  private stamps = new Int32Array(1 << 10);
  private generation = 0;
  private lastId = 0;

  /** Empties the trie and makes room for `entries` nodes (the root is 0; node ids start at 1). Returns `entries`. */
  reset(entries: number): number {
    const need = Math.max(16, entries * 2);
    if (1 << this.bits < need) {
      while (1 << this.bits < need) this.bits++;
      const size = 1 << this.bits;
      this.parents = new Int32Array(size);
      this.symbols = new Int32Array(size);
      this.ids = new Int32Array(size);
      this.stamps = new Int32Array(size);
      this.generation = 0;
    }
    if (this.generation === 0x7fffffff) {
      this.stamps.fill(0);
      this.generation = 0;
    }
    this.generation++;
    this.lastId = 0;
    return entries;
  }

  private slot(parent: number, symbol: number): number {
    return Math.imul(parent ^ Math.imul(symbol, 0x27d4eb2d), 0x9e3779b1) >>> (32 - this.bits);
  }

  /** The id of child `symbol` of node `parent`, created if new. */
  child(parent: number, symbol: number): number {
    const mask = (1 << this.bits) - 1;
    const stamps = this.stamps;
    const generation = this.generation;
    let h = this.slot(parent, symbol);
    for (;;) {
      if (stamps[h] !== generation) {
        stamps[h] = generation;
        this.parents[h] = parent;
        this.symbols[h] = symbol;
        return (this.ids[h] = ++this.lastId);
      }
      if (this.parents[h] === parent && this.symbols[h] === symbol) return this.ids[h]!;
      h = (h + 1) & mask;
    }
  }

  /** The id of child `symbol` of node `parent`, or 0 if there is no such node (never creates one). */
  find(parent: number, symbol: number): number {
    const mask = (1 << this.bits) - 1;
    const stamps = this.stamps;
    const generation = this.generation;
    let h = this.slot(parent, symbol);
    for (;;) {
      if (stamps[h] !== generation) return 0;
      if (this.parents[h] === parent && this.symbols[h] === symbol) return this.ids[h]!;
      h = (h + 1) & mask;
    }
  }
}
