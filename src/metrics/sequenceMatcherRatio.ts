// difflib.SequenceMatcher(None, a, b).ratio() (CPython Lib/difflib.py, docs/metrics.md#edit-similarity) on code-point sequences:
// b2j index with the autojunk "popular" rule, longest matches with the smallest-i/j tie-break, extension, recursion.
// Same steps as difflib, with typed arrays instead of dicts: b's distinct elements get small ids, b2j becomes ranges
// of one sorted position array, and the j2len dicts become two run-length rows indexed by j + 1.

// Scratch buffers, grown on demand; the run-length rows are kept at zero between calls.
let aIds = new Int32Array(256);
let bIds = new Int32Array(256);
let positions = new Int32Array(256);
let start = new Int32Array(257);
let end = new Int32Array(257);
let prevRun = new Int32Array(257);
let curRun = new Int32Array(257);
let prevSet = new Int32Array(256);
let curSet = new Int32Array(256);
const best = new Int32Array(3);

function grow(la: number, lb: number): void {
  if (aIds.length < la) aIds = new Int32Array(la);
  if (bIds.length < lb) {
    bIds = new Int32Array(lb);
    positions = new Int32Array(lb);
    start = new Int32Array(lb + 1);
    end = new Int32Array(lb + 1);
    prevRun = new Int32Array(lb + 1);
    curRun = new Int32Array(lb + 1);
    prevSet = new Int32Array(lb);
    curSet = new Int32Array(lb);
  }
}

/** find_longest_match(alo, ahi, blo, bhi) into `best` as (i, j, size). */
function longestMatch(a: ArrayLike<number>, b: ArrayLike<number>, alo: number, ahi: number, blo: number, bhi: number): void {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let prev = prevRun;
  let cur = curRun;
  let pSet = prevSet;
  let cSet = curSet;
  let nPrev = 0;
  for (let i = alo; i < ahi; i++) {
    let nCur = 0;
    const id = aIds[i]!;
    if (id >= 0) {
      for (let p = start[id]!, stop = end[id]!; p < stop; p++) {
        const j = positions[p]!;
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = prev[j]! + 1; // run ending at (i - 1, j - 1) is stored at index j
        cur[j + 1] = k;
        cSet[nCur++] = j + 1;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
    }
    for (let x = 0; x < nPrev; x++) prev[pSet[x]!] = 0;
    const row = prev;
    prev = cur;
    cur = row;
    const set = pSet;
    pSet = cSet;
    cSet = set;
    nPrev = nCur;
  }
  for (let x = 0; x < nPrev; x++) prev[pSet[x]!] = 0;
  // Extend with equal elements on both ends (no junk function, so popular elements are absorbed here too).
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
  best[0] = besti;
  best[1] = bestj;
  best[2] = bestsize;
}

/**
 * longestMatch without the b2j index, for short pairs: each row scans b[blo..bhi) in ascending j, which visits the
 * same (i, j) matches in the same order as b2j's ascending positions (no element is popular below 200 elements).
 */
function longestMatchDirect(a: ArrayLike<number>, b: ArrayLike<number>, alo: number, ahi: number, blo: number, bhi: number): void {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let prev = prevRun;
  let cur = curRun;
  prev.fill(0, blo, bhi + 1);
  cur[blo] = 0;
  for (let i = alo; i < ahi; i++) {
    const x = a[i];
    for (let j = blo; j < bhi; j++) {
      if (b[j] !== x) {
        cur[j + 1] = 0;
        continue;
      }
      const k = prev[j]! + 1; // run ending at (i - 1, j - 1) is stored at index j
      cur[j + 1] = k;
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    const row = prev;
    prev = cur;
    cur = row;
  }
  // The run-length rows are kept at zero between calls (longestMatch relies on it).
  prev.fill(0, blo, bhi + 1);
  cur.fill(0, blo, bhi + 1);
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
  best[0] = besti;
  best[1] = bestj;
  best[2] = bestsize;
}

/** Pairs with at most this many element comparisons per scan go through longestMatchDirect. */
const DIRECT_CELLS = 4096;

/** Sum of the sizes of SequenceMatcher's matching blocks (get_matching_blocks). */
export function matchingCharacters(a: ArrayLike<number>, b: ArrayLike<number>, autojunk = true): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  grow(la, lb);
  // Short pairs scan b directly; longer ones index it first (b2j), as difflib does.
  const direct = la * lb <= DIRECT_CELLS && !(autojunk && lb >= 200);
  if (!direct) indexB(a, b, autojunk);
  let matches = 0;
  const queue = [0, la, 0, lb];
  while (queue.length > 0) {
    const bhi = queue.pop()!;
    const blo = queue.pop()!;
    const ahi = queue.pop()!;
    const alo = queue.pop()!;
    if (direct) longestMatchDirect(a, b, alo, ahi, blo, bhi);
    else longestMatch(a, b, alo, ahi, blo, bhi);
    const i = best[0]!;
    const j = best[1]!;
    const k = best[2]!;
    if (k > 0) {
      matches += k;
      if (alo < i && blo < j) queue.push(alo, i, blo, j);
      if (i + k < ahi && j + k < bhi) queue.push(i + k, ahi, j + k, bhi);
    }
  }
  return matches;
}

/** b2j: ids for b's distinct elements, then each id's ascending positions as a range of `positions`; a's ids. */
function indexB(a: ArrayLike<number>, b: ArrayLike<number>, autojunk: boolean): void {
  const la = a.length;
  const lb = b.length;
  const idOf = new Map<number, number>();
  for (let j = 0; j < lb; j++) {
    let id = idOf.get(b[j]!);
    if (id === undefined) {
      id = idOf.size;
      idOf.set(b[j]!, id);
      end[id] = 0;
    }
    bIds[j] = id;
    end[id]!++;
  }
  const distinct = idOf.size;
  let offset = 0;
  for (let id = 0; id < distinct; id++) {
    start[id] = offset;
    offset += end[id]!;
    end[id] = start[id]!;
  }
  for (let j = 0; j < lb; j++) positions[end[bIds[j]!]!++] = j;
  if (autojunk && lb >= 200) {
    // Popular elements (more than 1% + 1 of b) lose their index entry.
    const ntest = Math.floor(lb / 100) + 1;
    for (let id = 0; id < distinct; id++) if (end[id]! - start[id]! > ntest) end[id] = start[id]!;
  }
  for (let i = 0; i < la; i++) aIds[i] = idOf.get(a[i]!) ?? -1;
}

/** `SequenceMatcher(None, a, b, autojunk).ratio()` on code-point sequences. */
export function sequenceMatcherRatio(a: ArrayLike<number>, b: ArrayLike<number>, autojunk = true): number {
  const length = a.length + b.length;
  if (length === 0) return 1.0;
  return (2.0 * matchingCharacters(a, b, autojunk)) / length;
}
