// Generation of many requests together (greedy, or sampled by each request's own picker) on a decoder's onnxruntime session: rows left-padded in one key/value
// cache (attention mask + position ids per row), each leaving when it is done while waiting requests take its place,
// prompts continuing from stored key/value caches of the token prefixes they share (few-shot blocks, chat headers), and
// identical prompts admitted together (an item's k trials, docs/trials.md) run once, their cache copied to k rows.
import { appendPositions, commonPrefixLength, gatherViews, type KvLayout, type KvView, type TensorLike } from './kvCache.ts';
import { CALL_OVERHEAD_TOKENS, lengthBatches } from './lengthBatches.ts';
import { PrefixCache, type PrefixEntry } from './prefixCache.ts';
import { StepBuffers } from './stepBuffers.ts';

/**
 * The session calls the engine makes: feeds by input name, fetches by output name (a list, or output tensors over
 * buffers onnxruntime writes into: BatchedDecoder.preallocate).
 */
interface DecoderSession {
  run(feeds: Record<string, unknown>, fetches: string[] | Record<string, unknown>): Promise<Record<string, unknown>>;
}

interface BatchedDecoder {
  session: DecoderSession;
  /**
   * Cache inputs (past_key_values.N.key/value), the outputs that return them one step longer (present.N.*) and, in a
   * graph that has them (newKeyValues.ts), the outputs holding only the pass's new positions.
   */
  past: Array<KvLayout & { present: string; fresh?: string }>;
  padId: number;
  /** Logits per position (config vocab_size): bounds prefill passes by maxBatchLogits. */
  vocab: number;
  /** The input choosing the positions that get logits (logitPositions.ts): a prompt pass then computes each row's last only. */
  logitPositions?: string;
  /** The output of each row's greedy next token (nextToken.ts): a decode step whose rows all take the argmax fetches it, not the logits. */
  nextToken?: string;
  /** Typed data as an onnxruntime input tensor. */
  input(type: 'int64' | 'float32' | 'float16', data: BigInt64Array | Float32Array | Uint16Array, dims: number[]): unknown;
  /** Logits output data as float32 (float16 models convert). */
  float32(output: TensorLike): Float32Array;
  /** Text of token ids with special tokens kept (tells a tokenisation boundary from a different prompt). */
  text(ids: number[]): string;
  /**
   * Decode steps of float32 caches keep the caches in buffers of the engine (stepBuffers.ts): a step fetches the
   * logits (or, when its rows are all greedy without processors, each row's token: nextToken.ts) and the new keys and
   * values when the graph outputs them (`fresh`) and appends those, else it hands
   * onnxruntime preallocated output tensors for the logits and whole caches.
   */
  preallocate?: boolean;
}

/** One request as the engine runs it. */
export interface GenerationJob {
  ids: number[];
  /** True once the row must stop after its latest token (EOS, token budget, stop string). */
  done(all: number[], generated: number[]): boolean;
  /** Logits processors (repetition penalty, …) applied in place to the row's logits before the argmax. */
  process?(all: bigint[], logits: Float32Array): void;
  /** Sampled decoding: the next token from the processed logits, by the request's own seeded stream (absent: argmax). */
  pick?(logits: Float32Array): number;
  resolve(generated: number[], latencyMs: number): void;
  reject(error: unknown): void;
}

interface BatchedGenerationOptions {
  /** Rows decoded together. */
  batchSize: number;
  /** Upper bound on rows × cache width of a decode step (attention work and cache memory grow with it). */
  maxBatchTokens: number;
  /** Upper bound on rows × new tokens × vocabulary logits of a prefill pass. */
  maxBatchLogits: number;
  /** Cached prefix positions kept across calls; 0 turns prefix reuse off. */
  prefixCacheTokens: number;
  /**
   * When only each row's last position gets logits, the logits cap bounds a prompt pass's rows alone, and its
   * positions (rows × tokens) are bounded by the larger of this and what the logits cap allows at every position
   * (activations, attention's growing with the square of a pass's length; a small vocabulary keeps its larger passes).
   */
  maxPassTokens?: number;
  /**
   * Each prompt's pass runs alone and whole: never padded beside others, cut into chunks or continued from a stored
   * prefix (a per-item quantised graph, perItemQuantisation.ts, scales an item by its whole prompt, as the runtime does).
   */
  promptAlone?: boolean;
  /**
   * Rows share a decode step only when their lengths are congruent modulo this, so each row's left padding is a
   * multiple of it: attention's kernels then treat the row's positions as they do alone (the provider finds the
   * number once per load; without it any padding may change a row's bits, which per-item quantisation amplifies).
   */
  decodeAlignment?: number;
}

/** maxPassTokens by default. */
export const MAX_PASS_TOKENS = 512;

/** What generation did so far (benchmarks and tests read it). */
export interface GenerationStats {
  requests: number;
  /** Forward passes: prompt passes (prefill and shared prefixes) and decode steps. */
  forwardCalls: number;
  /** Prompt passes that computed logits at each row's last position only (BatchedDecoder.logitPositions). */
  lastLogitsPasses: number;
  decodeSteps: number;
  /** Decode steps whose logits and key/value cache onnxruntime wrote into the engine's kept buffers (BatchedDecoder.preallocate). */
  decodeStepsInPlace: number;
  /** Decode steps that fetched only each cache's new position and appended it to the kept buffers (newKeyValues.ts). */
  decodeStepsAppended: number;
  /** Of those, steps that fetched each row's greedy token instead of its logits (nextToken.ts). */
  decodeStepsNextToken: number;
  /** Decode batches gathered anew (each copies every row's key/value cache): when rows join, or most slots idle. */
  decodeGathers: number;
  /** Prompt tokens asked for, and those actually run (the rest came from stored prefixes). */
  promptTokens: number;
  promptTokensComputed: number;
  generatedTokens: number;
  /** Prompts that continued a stored prefix, and the prompt tokens that saved. */
  prefixHits: number;
  prefixTokensReused: number;
  /** Prompts with no stored prefix worth continuing. */
  prefixMisses: number;
  /**
   * Requests that took the prompt pass of an identical prompt admitted with them (the k trials of one item): its key/value
   * cache and last logits, copied to their own rows, with no pass or prefix lookup of their own.
   */
  sharedPromptRows: number;
  /** Prompts whose text starts with a stored prefix's text but whose token ids part from it before its end. */
  prefixFallbacks: number;
  /** Prefixes common to several prompts computed once and stored. */
  sharedPrefixes: number;
  /** Rows that joined a batch already decoding other rows. */
  joinedRunning: number;
  largestBatch: number;
}

export function emptyGenerationStats(): GenerationStats {
  return {
    requests: 0,
    forwardCalls: 0,
    lastLogitsPasses: 0,
    decodeSteps: 0,
    decodeStepsInPlace: 0,
    decodeStepsAppended: 0,
    decodeStepsNextToken: 0,
    decodeGathers: 0,
    promptTokens: 0,
    promptTokensComputed: 0,
    generatedTokens: 0,
    prefixHits: 0,
    prefixTokensReused: 0,
    prefixMisses: 0,
    sharedPromptRows: 0,
    prefixFallbacks: 0,
    sharedPrefixes: 0,
    joinedRunning: 0,
    largestBatch: 0,
  };
}

/** Shortest shared prefix worth a stored cache (less than a forward pass's fixed cost is not worth a lookup). */
export const MIN_SHARED_PREFIX = CALL_OVERHEAD_TOKENS;
/** A prompt that ran at least this many tokens of its own is kept whole, in case later prompts share its start. */
const KEEP_PROMPT_TOKENS = 4 * CALL_OVERHEAD_TOKENS;

/** Index of the largest value, the first on ties (transformers.js's greedy argmax). */
export function argmax(row: Float32Array): number {
  let best = row[0]!;
  let index = 0;
  for (let i = 1; i < row.length; i++) {
    if (row[i]! > best) {
      best = row[i]!;
      index = i;
    }
  }
  return index;
}

interface Row {
  job: GenerationJob;
  all: number[];
  big: bigint[];
  generated: number[];
  /** Cache of all tokens but the last (which the next step feeds). */
  view: KvView;
  started: number;
}

/** A sequence to run forward: its stored start (if any) and the tokens to add after it. */
interface Extension {
  past: KvView | null;
  pastLength: number;
  tokens: number[];
}

type Extended = { view: KvView; last: Float32Array } | { error: unknown };

export class BatchedGeneration {
  readonly stats: GenerationStats = emptyGenerationStats();
  private readonly waiting: GenerationJob[] = [];
  private active: Row[] = [];
  /**
   * The decode batch's cache while its live rows are exactly `active`, in order. Rows that finished stay as idle slots
   * (undefined) until rows join or most slots idle: re-gathering copies the whole cache, an idle slot only its share of
   * a step. `native` when the cache is the session's own output, fed back as it is.
   */
  private batch?: { slots: Array<Row | undefined>; cache: Record<string, TensorLike>; width: number; native: boolean };
  private running = false;
  readonly prefixes?: PrefixCache;
  /** Decode steps' output buffers (decoder.preallocate; dropped if the session does not write into them). */
  private buffers?: StepBuffers;
  /**
   * What a decode step's outputs showed: the logits' row length, and the session's own tensor class. onnxruntime-node
   * takes an output tensor as preallocated only if it is an instance of the class its run returns (onnxruntime-common's
   * CommonJS build; transformers.js's tensors wrap the ES module build's, which its run would take for options).
   */
  private stepOutputs?: { vocab: number; tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown };
  /** A decode step's fetches when every cache has its new-positions output: the logits and those (newKeyValues.ts). */
  private freshFetches?: string[];
  /** The same with each row's greedy token in place of the logits (nextToken.ts), for steps whose rows all take the argmax. */
  private nextTokenFetches?: string[];
  /** Whether a step's writes into the buffers were checked against the outputs the session returned. */
  private buffersChecked = false;

  constructor(
    private readonly decoder: BatchedDecoder,
    private readonly options: BatchedGenerationOptions,
    /** Runs the engine when the model is free (the provider's exclusive queue). */
    private readonly schedule: (run: () => Promise<void>) => void,
    /** True while other model work waits: the engine finishes its rows and hands the model over. */
    private readonly shouldYield: () => boolean = () => false,
  ) {
    if (options.prefixCacheTokens > 0) this.prefixes = new PrefixCache(decoder.past, options.prefixCacheTokens);
    if (decoder.preallocate && decoder.past.every((p) => p.type === 'float32')) {
      this.buffers = new StepBuffers();
      if (decoder.past.every((p) => p.fresh !== undefined)) {
        this.freshFetches = ['logits', ...decoder.past.map((p) => p.fresh!)];
        if (decoder.nextToken) this.nextTokenFetches = [decoder.nextToken, ...decoder.past.map((p) => p.fresh!)];
      }
    }
  }

  submit(job: GenerationJob): void {
    this.stats.requests++;
    this.waiting.push(job);
    this.ensureRunning();
  }

  private ensureRunning(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(() => this.run());
  }

  private async run(): Promise<void> {
    // calls made in the same tick (concurrent tests) join the first batch
    await new Promise((resolve) => setImmediate(resolve));
    try {
      for (;;) {
        await this.admit();
        if (this.active.length === 0) break;
        await this.step();
      }
    } catch (error) {
      // a bug, not a model failure (those fail their rows): nobody may wait forever
      for (const row of this.active) row.job.reject(error);
      for (const job of this.waiting.splice(0)) job.reject(error);
      this.active = [];
    } finally {
      this.batch = undefined;
      this.running = false;
    }
    if (this.waiting.length > 0) this.ensureRunning();
  }

  /**
   * The waiting requests that may join the decode batch now: all of them, or with decodeAlignment those whose length
   * after their first token is congruent to the batch's rows (an empty batch takes the largest such group, the
   * earliest request's on a tie).
   */
  private eligible(): GenerationJob[] {
    const align = this.options.decodeAlignment ?? 1;
    if (align === 1) return this.waiting;
    const cls = (length: number) => length % align;
    if (this.active.length > 0) return this.waiting.filter((job) => cls(job.ids.length + 1) === cls(this.active[0]!.all.length));
    const counts = new Map<number, number>();
    for (const job of this.waiting) counts.set(cls(job.ids.length + 1), (counts.get(cls(job.ids.length + 1)) ?? 0) + 1);
    let best = cls(this.waiting[0]!.ids.length + 1);
    for (const [c, n] of counts) if (n > counts.get(best)!) best = c;
    return this.waiting.filter((job) => cls(job.ids.length + 1) === best);
  }

  /** Takes waiting requests into free rows (within the batch × length cap), runs their prompts, picks first tokens. */
  private async admit(): Promise<void> {
    if (this.waiting.length === 0 || this.active.length >= this.options.batchSize || this.shouldYield()) return;
    const eligible = this.eligible();
    // rows join a running batch in groups (one prompt pass and one cache re-gather for the group, not per row); aligned
    // rows as soon as a slot is free: their lengths agree with the batch's only every decodeAlignment-th step
    const free = this.options.batchSize - this.active.length;
    const group = (this.options.decodeAlignment ?? 1) > 1 ? 1 : Math.min(eligible.length, Math.ceil(this.options.batchSize / 2));
    if (eligible.length === 0 || (this.active.length > 0 && free < group)) return;
    let width = Math.max(0, ...this.active.map((r) => r.all.length));
    const taken: GenerationJob[] = [];
    for (const next of eligible) {
      if (this.active.length + taken.length >= this.options.batchSize) break;
      const rows = this.active.length + taken.length + 1;
      const w = Math.max(width, next.ids.length + 1);
      if (rows > 1 && rows * w > this.options.maxBatchTokens) break;
      width = w;
      taken.push(next);
    }
    if (taken.length === 0) return;
    if (taken.length === this.waiting.length) this.waiting.length = 0;
    else {
      const set = new Set(taken);
      const rest = this.waiting.filter((job) => !set.has(job));
      this.waiting.splice(0, this.waiting.length, ...rest);
    }
    const started = performance.now();
    for (const job of taken) this.stats.promptTokens += job.ids.length;
    // identical prompts (an item's k trials) run once: the first of them runs the pass, the others take its result
    const leaders = samePromptLeaders(taken.map((job) => job.ids));
    const unique = taken.filter((_, i) => leaders[i] === i);
    const slot = new Map(unique.map((job, u) => [job, u]));
    const starts = await this.startPoints(unique);
    const extended = await this.extendAll(unique.map((job, u) => ({ past: starts[u]?.view ?? null, pastLength: starts[u]?.length ?? 0, tokens: job.ids.slice(starts[u]?.length ?? 0) })));
    // each row its own copy of the first logits, taken before any row's processors change them in place
    const firsts = taken.map((_, i) => {
      const out = extended[slot.get(taken[leaders[i]!]!)!]!;
      return 'error' in out || leaders[i] === i ? out : { view: out.view, last: out.last.slice() };
    });
    const joining = this.active.length > 0;
    taken.forEach((job, i) => {
      const out = firsts[i]!;
      if ('error' in out) return job.reject(out.error);
      if (leaders[i] !== i) this.stats.sharedPromptRows++;
      else {
        const own = job.ids.length - (starts[slot.get(job)!]?.length ?? 0);
        if (this.prefixes && own >= KEEP_PROMPT_TOKENS) this.prefixes.add(job.ids, out.view, 'prompt');
      }
      // rows of one prompt share its cache view (read only: a decode batch gathers a copy per row)
      const row: Row = { job, all: job.ids.slice(), big: job.ids.map(BigInt), generated: [], view: out.view, started };
      if (!this.choose(row, out.last)) {
        this.active.push(row);
        if (joining) this.stats.joinedRunning++;
      }
    });
    this.stats.largestBatch = Math.max(this.stats.largestBatch, this.active.length);
  }

  /**
   * Where each prompt starts from: the stored prefix sharing the most leading token ids (each prompt keeps at least
   * one token of its own, whose logits give its first new token). Prompts of this group sharing a longer prefix than
   * any stored one get it computed once and stored first.
   */
  private async startPoints(jobs: GenerationJob[]): Promise<Array<{ view: KvView; length: number } | undefined>> {
    const store = this.prefixes;
    if (!store) return jobs.map(() => undefined);
    // `keep` tokens at the end must run (a prompt's last token gives its first new token's logits)
    const reusable = (ids: number[], keep = 1) => {
      const match = store.longest(ids);
      const length = Math.min(match?.length ?? 0, ids.length - keep);
      return match && length >= MIN_SHARED_PREFIX ? { entry: match.entry, length, raw: match.length } : undefined;
    };
    for (const run of sharedRuns(jobs.map((j) => j.ids))) {
      const common = Math.min(run.common, ...run.members.map((i) => jobs[i]!.ids.length - 1));
      const gaining = run.members.filter((i) => (reusable(jobs[i]!.ids)?.length ?? 0) + MIN_SHARED_PREFIX <= common);
      if (gaining.length < 2) continue;
      const tokens = jobs[run.members[0]!]!.ids.slice(0, common);
      const base = reusable(tokens, 0);
      const [out] = await this.extendAll([{ past: base?.entry.view ?? null, pastLength: base?.length ?? 0, tokens: tokens.slice(base?.length ?? 0) }]);
      // a failed shared prefix only costs the reuse: each prompt then runs (and fails or not) on its own
      if (out && 'view' in out && store.add(tokens, out.view, 'shared')) this.stats.sharedPrefixes++;
    }
    return jobs.map((job) => {
      const found = reusable(job.ids);
      const best = found ? undefined : store.longest(job.ids);
      const entry: PrefixEntry | undefined = found?.entry ?? best?.entry;
      const raw = found?.raw ?? best?.length ?? 0;
      if (entry && raw < entry.tokens.length) {
        entry.text ??= this.decoder.text(entry.tokens);
        if (this.decoder.text(job.ids).startsWith(entry.text)) this.stats.prefixFallbacks++;
      }
      if (!found) {
        this.stats.prefixMisses++;
        return undefined;
      }
      store.touch(found.entry);
      this.stats.prefixHits++;
      this.stats.prefixTokensReused += found.length;
      return { view: found.entry.view, length: found.length };
    });
  }

  /** Runs each extension forward (batched by length within the logits cap); a failing pass is retried row by row. */
  private async extendAll(items: Extension[]): Promise<Extended[]> {
    const results: Extended[] = new Array(items.length);
    const indexed = items.map((item, index) => ({ item, index }));
    const vocab = this.decoder.vocab;
    const lastOnly = this.decoder.logitPositions !== undefined;
    const batches = lengthBatches(indexed, (x) => x.item.tokens.length, {
      batchSize: this.options.promptAlone ? 1 : this.options.batchSize,
      maxBatchLogits: this.options.maxBatchLogits,
      vocab,
      ...(lastOnly ? { lastLogitsOnly: true, maxBatchTokens: this.passTokens() } : {}),
    });
    for (const batch of batches) {
      try {
        const out = await this.extendBatch(batch.map((x) => x.item));
        batch.forEach((x, b) => (results[x.index] = out[b]!));
      } catch (error) {
        for (const x of batch) {
          if (batch.length === 1) results[x.index] = { error };
          else {
            try {
              results[x.index] = (await this.extendBatch([x.item]))[0]!;
            } catch (single) {
              results[x.index] = { error: single };
            }
          }
        }
      }
    }
    return results;
  }

  /** Positions a prompt pass may compute when only each row's last gets logits (see maxPassTokens). */
  private passTokens(): number {
    return Math.max(1, this.options.maxPassTokens ?? MAX_PASS_TOKENS, Math.floor(this.options.maxBatchLogits / this.decoder.vocab));
  }

  /** One pass over right-padded rows (a lone row longer than the logits cap runs in chunks). */
  private async extendBatch(items: Extension[]): Promise<Array<{ view: KvView; last: Float32Array }>> {
    const chunk = this.decoder.logitPositions ? this.passTokens() : Math.max(1, Math.floor(this.options.maxBatchLogits / this.decoder.vocab));
    if (items.length === 1 && items[0]!.tokens.length > chunk && !this.options.promptAlone) {
      let { past, pastLength } = items[0]!;
      const tokens = items[0]!.tokens;
      let out: { view: KvView; last: Float32Array } | undefined;
      for (let at = 0; at < tokens.length; at += chunk) {
        [out] = await this.pass([{ past, pastLength, tokens: tokens.slice(at, at + chunk) }]);
        past = out!.view;
        pastLength = out!.view.length;
      }
      return [out!];
    }
    return this.pass(items);
  }

  private async pass(items: Extension[]): Promise<Array<{ view: KvView; last: Float32Array }>> {
    const b = items.length;
    const width = Math.max(...items.map((it) => it.tokens.length));
    const pastViews = items.map((it) => it.past ?? EMPTY_VIEW);
    const gathered = gatherViews(pastViews, this.decoder.past, items.map((it) => it.pastLength));
    const pastWidth = gathered.width;
    const total = pastWidth + width;
    const ids = new BigInt64Array(b * width).fill(BigInt(this.decoder.padId));
    const mask = new BigInt64Array(b * total);
    const positions = new BigInt64Array(b * width);
    items.forEach((it, r) => {
      const own = it.pastLength;
      const n = it.tokens.length;
      for (let j = 0; j < n; j++) ids[r * width + j] = BigInt(it.tokens[j]!);
      mask.fill(1n, r * total + pastWidth - own, r * total + pastWidth + n);
      // padding positions repeat the last real position (masked out, outputs ignored)
      for (let j = 0; j < width; j++) positions[r * width + j] = BigInt(own + Math.min(j, n - 1));
    });
    // each row's last token, as a row of the pass's [rows × width] positions
    const lasts = items.map((it, r) => r * width + it.tokens.length - 1);
    const select = this.decoder.logitPositions ? BigInt64Array.from(lasts, BigInt) : undefined;
    const { logits, present } = await this.runWhole(this.feeds(ids, mask, positions, [b, width], gathered.cache, false, select));
    this.stats.promptTokensComputed += items.reduce((s, it) => s + it.tokens.length, 0);
    if (select) this.stats.lastLogitsPasses++;
    const vocab = logits.length / (select ? b : b * width);
    return items.map((it, r) => {
      const at = (select ? r : lasts[r]!) * vocab;
      return {
        view: { cache: present, row: r, start: pastWidth - it.pastLength, length: it.pastLength + it.tokens.length },
        last: logits.slice(at, at + vocab),
      };
    });
  }

  /** The feeds of one run: the ids, mask and positions, the chosen logit positions, and each cache of `past`. */
  private feeds(
    ids: BigInt64Array,
    mask: BigInt64Array,
    positions: BigInt64Array,
    shape: [number, number],
    past: Record<string, TensorLike>,
    /** The past is the session's own output (fed back without wrapping it again). */
    native: boolean,
    /** One position per row whose logits are wanted (decoder.logitPositions); all positions when absent. */
    select?: BigInt64Array,
  ): Record<string, unknown> {
    const d = this.decoder;
    const feeds: Record<string, unknown> = {
      input_ids: d.input('int64', ids, shape),
      attention_mask: d.input('int64', mask, [shape[0], mask.length / shape[0]]),
      position_ids: d.input('int64', positions, shape),
    };
    if (select && d.logitPositions) feeds[d.logitPositions] = d.input('int64', select, [shape[0], 1]);
    for (const layout of d.past) {
      const t = past[layout.name]!;
      feeds[layout.name] = native ? t : d.input(layout.type, t.data, [...t.dims]);
    }
    this.stats.forwardCalls++;
    return feeds;
  }

  /**
   * A run fetching the logits (at the chosen positions, or all) and every cache whole, each a copy onnxruntime-node
   * makes: a prompt pass, or a decode step of rows not the engine's own (a row-by-row retry).
   */
  private async runWhole(feeds: Record<string, unknown>): Promise<{ logits: Float32Array; present: Record<string, TensorLike>; raw: TensorLike }> {
    const d = this.decoder;
    const out = await d.session.run(feeds, ['logits', ...d.past.map((p) => p.present)]);
    const present: Record<string, TensorLike> = {};
    for (const layout of d.past) present[layout.name] = out[layout.present] as TensorLike;
    const raw = out.logits as TensorLike;
    return { logits: d.float32(raw), present, raw };
  }

  /**
   * A decode step of the engine's own rows, its outputs into the step buffers (StepBuffers): each row's logits, or
   * with `greedy` (every row takes the argmax of its logits unprocessed) each row's token where the graph has it
   * (nextToken.ts).
   */
  private async bufferedStep(
    feeds: Record<string, unknown>,
    /** The caches `feeds` holds, which the step's new positions extend. */
    past: Record<string, TensorLike>,
    rows: number,
    greedy: boolean,
  ): Promise<{ logits: Float32Array; present: Record<string, TensorLike> } | { tokens: BigInt64Array; present: Record<string, TensorLike> }> {
    const d = this.decoder;
    const buffers = this.buffers;
    if (!buffers) return this.runWhole(feeds);
    if (this.freshFetches) {
      // a decode step copying out the logits and one position per cache, which the engine appends to the row's cache
      // in the kept buffers itself (instead of onnxruntime-node copying out every cache whole: newKeyValues.ts)
      const byToken = greedy && this.nextTokenFetches !== undefined;
      const out = await d.session.run(feeds, byToken ? this.nextTokenFetches! : this.freshFetches);
      const present: Record<string, TensorLike> = {};
      for (const layout of d.past) {
        const from = past[layout.name]!;
        const width = from.dims[2]!;
        const data = buffers.cache(layout.name, rows * layout.heads * (width + 1) * layout.dim);
        appendPositions(from.data as Float32Array, (out[layout.fresh!] as TensorLike).data as Float32Array, data, rows * layout.heads, width, 1, layout.dim);
        present[layout.name] = d.input('float32', data, [rows, layout.heads, width + 1, layout.dim]) as TensorLike;
      }
      buffers.flip();
      this.stats.decodeStepsAppended++;
      if (byToken) {
        this.stats.decodeStepsNextToken++;
        return { tokens: (out[d.nextToken!] as { data: BigInt64Array }).data, present };
      }
      return { logits: d.float32(out.logits as TensorLike), present };
    }
    const seen = this.stepOutputs;
    if (seen) {
      // a decode step: logits [rows, 1, vocabulary], each cache one position longer than its past
      const logits = buffers.logits(rows * seen.vocab);
      const fetches: Record<string, unknown> = { logits: new seen.tensor('float32', logits, [rows, 1, seen.vocab]) };
      const present: Record<string, TensorLike> = {};
      for (const layout of d.past) {
        const dims = [rows, layout.heads, past[layout.name]!.dims[2]! + 1, layout.dim];
        const tensor = new seen.tensor('float32', buffers.cache(layout.name, dims.reduce((x, y) => x * y, 1)), dims);
        fetches[layout.present] = tensor;
        present[layout.name] = tensor as TensorLike;
      }
      const out = await d.session.run(feeds, fetches);
      buffers.flip();
      if (!this.buffersChecked) {
        this.buffersChecked = true;
        // once: the session wrote into the buffers (else it returned outputs of its own: use those, and stop buffering)
        const returned = (out.logits as TensorLike | undefined)?.data;
        if (returned !== logits && !(returned instanceof Float32Array && returned.length === logits.length && returned.every((x, i) => Object.is(x, logits[i])))) {
          this.buffers = undefined;
          for (const layout of d.past) present[layout.name] = out[layout.present] as TensorLike;
          return { logits: d.float32(out.logits as TensorLike), present };
        }
      }
      this.stats.decodeStepsInPlace++;
      return { logits, present };
    }
    // the first step: its outputs show which tensor class the session takes as preallocated fetches
    const { logits, present, raw } = await this.runWhole(feeds);
    const made = (raw as object).constructor;
    if (raw.type === 'float32' && typeof made === 'function' && made !== Object) this.stepOutputs = { vocab: logits.length / rows, tensor: made as NonNullable<typeof this.stepOutputs>['tensor'] };
    return { logits, present };
  }

  /** One decode step for every active row; a failing step is retried row by row, failing only the rows that fail. */
  private async step(): Promise<void> {
    const rows = this.active;
    try {
      await this.decode(rows);
    } catch (error) {
      this.batch = undefined;
      if (rows.length === 1) {
        this.finish(rows[0]!, error);
        return;
      }
      for (const row of rows) {
        try {
          await this.decode([row]);
        } catch (single) {
          this.finish(row, single);
        }
      }
      this.batch = undefined;
    }
  }

  private async decode(rows: Row[]): Promise<void> {
    let batch = this.batch;
    if (!batch || !sameRows(batch.slots, rows)) {
      const gathered = gatherViews(rows.map((r) => r.view), this.decoder.past);
      batch = { slots: rows.slice(), cache: gathered.cache, width: gathered.width, native: false };
      this.stats.decodeGathers++;
    }
    const slots = batch.slots;
    const b = slots.length;
    const width = batch.width;
    const total = width + 1;
    const ids = new BigInt64Array(b).fill(BigInt(this.decoder.padId));
    const mask = new BigInt64Array(b * total);
    const positions = new BigInt64Array(b);
    slots.forEach((row, r) => {
      // an idle slot attends to its own new position only (a row with no visible position would give NaN)
      if (!row) return void (mask[(r + 1) * total - 1] = 1n);
      const cached = row.all.length - 1;
      ids[r] = BigInt(row.all.at(-1)!);
      mask.fill(1n, r * total + width - cached, (r + 1) * total);
      positions[r] = BigInt(cached);
    });
    const own = rows === this.active;
    const greedy = slots.every((row) => !row || (!row.job.pick && !row.job.process));
    const feeds = this.feeds(ids, mask, positions, [b, 1], batch.cache, batch.native);
    const step = own ? await this.bufferedStep(feeds, batch.cache, b, greedy) : await this.runWhole(feeds);
    const { present } = step;
    this.stats.decodeSteps++;
    const vocab = 'logits' in step ? step.logits.length / b : 0;
    const next: Array<Row | undefined> = slots.slice();
    const finished: Row[] = [];
    slots.forEach((row, r) => {
      if (!row) return;
      row.view = { cache: present, row: r, start: total - row.all.length, length: row.all.length };
      if ('logits' in step ? this.choose(row, step.logits.subarray(r * vocab, (r + 1) * vocab)) : this.take(row, Number(step.tokens[r]!))) {
        finished.push(row);
        next[r] = undefined;
      }
    });
    if (finished.length > 0) this.active = this.active.filter((r) => !finished.includes(r));
    const live = this.active.length;
    // kept only for the engine's own rows (not a row-by-row retry), and re-gathered once most of its slots idle
    this.batch = own && live > 0 && 2 * live >= b ? { slots: next, cache: present, width: total, native: true } : undefined;
  }

  /** Appends the row's next token (greedy, or its own sampled draw); true (and answered) when the row is done. */
  private choose(row: Row, logits: Float32Array): boolean {
    row.job.process?.(row.big, logits);
    return this.take(row, row.job.pick ? row.job.pick(logits) : argmax(logits));
  }

  /** Appends a chosen token to the row; true (and answered) when the row is done. */
  private take(row: Row, token: number): boolean {
    row.all.push(token);
    row.big.push(BigInt(token));
    row.generated.push(token);
    this.stats.generatedTokens++;
    if (!row.job.done(row.all, row.generated)) return false;
    row.job.resolve(row.generated, performance.now() - row.started);
    return true;
  }

  private finish(row: Row, error: unknown): void {
    row.job.reject(error);
    this.active = this.active.filter((r) => r !== row);
  }
}

/** For each sequence, the index of the first sequence with the same ids (itself when it is the first). */
export function samePromptLeaders(sequences: number[][]): number[] {
  const first = new Map<string, number>();
  return sequences.map((ids, i) => {
    const key = ids.join(',');
    const found = first.get(key);
    if (found !== undefined) return found;
    first.set(key, i);
    return i;
  });
}

/** Whether the live slots hold exactly `rows`, in order. */
function sameRows(slots: Array<Row | undefined>, rows: Row[]): boolean {
  let k = 0;
  for (const slot of slots) if (slot && slot !== rows[k++]) return false;
  return k === rows.length;
}

const EMPTY_VIEW: KvView = { cache: {}, row: 0, start: 0, length: 0 };

/**
 * Groups of sequences sharing at least MIN_SHARED_PREFIX leading tokens (adjacent in sorted order), with the length
 * all members of a group share.
 */
export function sharedRuns(sequences: number[][]): Array<{ members: number[]; common: number }> {
  const order = sequences.map((_, i) => i).sort((a, b) => compareIds(sequences[a]!, sequences[b]!));
  const runs: Array<{ members: number[]; common: number }> = [];
  let current: { members: number[]; common: number } | undefined;
  for (let k = 0; k < order.length; k++) {
    const shared = k === 0 ? 0 : commonPrefixLength([sequences[order[k - 1]!]!, sequences[order[k]!]!]);
    if (current && shared >= MIN_SHARED_PREFIX) {
      current.members.push(order[k]!);
      current.common = Math.min(current.common, shared);
    } else {
      if (current && current.members.length > 1) runs.push(current);
      current = { members: [order[k]!], common: Infinity };
    }
  }
  if (current && current.members.length > 1) runs.push(current);
  return runs;
}

function compareIds(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
