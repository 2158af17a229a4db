// nltk 3.10.3 PunktSentenceTokenizer (tokenize/punkt.py): the sentence splitter behind word_tokenize (docs/metrics.md#meteor).
// Indices are UTF-16 offsets throughout: every slice boundary is a regex match position on a code point boundary,
// so the resulting substrings equal Python's code-point slices.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { PY_WS_CLASS, pythonRstrip, pythonStrip } from '../core/python/pythonWhitespace.ts';
import { PY_WORD_CLASS } from '../core/python/pythonWordClass.ts';

export interface PunktParameters {
  abbrevTypes: ReadonlySet<string>;
  /** Keys are `type1 + '\t' + type2`. */
  collocations: ReadonlySet<string>;
  sentStarters: ReadonlySet<string>;
  orthoContext: ReadonlyMap<string, number>;
}

class PunktParameterError extends Error {
  constructor(readonly file: string, readonly line: number, detail: string) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'PunktParameterError';
  }
}

const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC;

/** The English parameters shipped beside this file (nltk_data punkt_tab/english, see punkt-english/SOURCE.md). */
export const DEFAULT_PUNKT_DIR = fileURLToPath(new URL('./punkt-english/', import.meta.url));

/** Lines as nltk's tabdata reader sees them: universal newlines, one trailing "\n" removed per line. */
function dataLines(text: string): string[] {
  const normalised = text.replace(/\r\n?/g, '\n');
  if (normalised === '') return [];
  const lines = normalised.split('\n');
  if (normalised.endsWith('\n')) lines.pop();
  return lines;
}

function readParamFile(dir: string, name: string): { file: string; lines: string[] } {
  const file = join(dir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PunktParameterError(file, 0, `cannot read Punkt parameter file (${(error as Error).message}); set LOKAL_PUNKT_DIR to a folder with abbrev_types.txt, collocations.tab, sent_starters.txt and ortho_context.tab`);
  }
  return { file, lines: dataLines(text) };
}

/** Reads a punkt_tab language folder (the four files nltk's load_punkt_params reads). */
export function loadPunktParameters(dir: string): PunktParameters {
  const abbrev = readParamFile(dir, 'abbrev_types.txt');
  const starters = readParamFile(dir, 'sent_starters.txt');
  const colloc = readParamFile(dir, 'collocations.tab');
  const ortho = readParamFile(dir, 'ortho_context.tab');
  const collocations = new Set<string>();
  for (const line of colloc.lines) {
    // tuple(line.split("\t")): only 2-tuples can ever equal a (type1, type2) pair.
    if (line.split('\t').length === 2) collocations.add(line);
  }
  const orthoContext = new Map<string, number>();
  ortho.lines.forEach((line, i) => {
    const parts = line.split('\t');
    if (parts.length !== 2) throw new PunktParameterError(ortho.file, i + 1, `expected "type<TAB>flags", got ${JSON.stringify(line)}`);
    const value = pythonStrip(parts[1]!);
    if (!/^[+-]?\d+$/.test(value)) throw new PunktParameterError(ortho.file, i + 1, `flags ${JSON.stringify(parts[1])} are not an integer`);
    orthoContext.set(parts[0]!, Number.parseInt(value, 10));
  });
  return {
    abbrevTypes: new Set(abbrev.lines),
    collocations,
    sentStarters: new Set(starters.lines),
    orthoContext,
  };
}

let cachedEnglish: { dir: string; params: PunktParameters } | undefined;

/** English parameters: from env LOKAL_PUNKT_DIR when set, else the shipped copy; loaded once. */
export function englishPunktParameters(): PunktParameters {
  const dir = process.env.LOKAL_PUNKT_DIR || DEFAULT_PUNKT_DIR;
  if (!cachedEnglish || cachedEnglish.dir !== dir) cachedEnglish = { dir, params: loadPunktParameters(dir) };
  return cachedEnglish.params;
}

// PunktLanguageVars (English defaults).
const S = `[${PY_WS_CLASS}]`;
const NOT_S = `[^${PY_WS_CLASS}]`;
const NON_WORD = '(?:[)";}\\]*:@\'({\\[\\u2018\\u2019\\u201c\\u201d\\xab\\xbb?!])';
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = '[^("`{\\[:;&#*@)}\\]\\-,]';
const WORD_TOKENIZER = new RegExp(
  `(${MULTI_CHAR}|(?=${WORD_START})${NOT_S}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NOT_S})`,
  'gu',
);
const PERIOD_CONTEXT = new RegExp(`[.?!](?=(?<after_tok>${NON_WORD}|${S}+(?<next_tok>${NOT_S}+)))`, 'gdu');
const BOUNDARY_REALIGNMENT = new RegExp(`^["')\\]}\\u2018\\u2019\\u201c\\u201d\\xab\\xbb]+?(?:${S}+|(?=--)|(?=\\n)|$)`, 'u');
const ASCII_WHITESPACE = new Set([' ', '\t', '\n', '\r', '\x0b', '\x0c']); // Python string.whitespace
const RE_NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.\-]*\.?$/u;
const RE_ELLIPSIS = /^\.\.+$/u;
const RE_INITIAL = new RegExp(`^(?:(?!\\p{Nd})[${PY_WORD_CLASS}])\\.$`, 'u');
const RE_FIRST_UPPER = /^\p{Uppercase}/u;
const RE_FIRST_LOWER = /^\p{Lowercase}/u;
const SENT_END_CHARS = new Set(['.', '?', '!']);
const ORTHO_PUNCTUATION = new Set([';', ':', ',', '.', '!', '?']);

/** PunktLanguageVars.word_tokenize: the coarse tokens Punkt reasons about. */
function punktWordTokenize(s: string): string[] {
  return [...s.matchAll(WORD_TOKENIZER)].map((m) => m[1]!);
}

class PunktToken {
  readonly type: string;
  readonly periodFinal: boolean;
  sentbreak = false;
  abbr = false;
  ellipsis = false;

  constructor(readonly tok: string) {
    const lower = tok.toLowerCase();
    this.type = RE_NUMERIC.test(lower) ? '##number##' : lower;
    this.periodFinal = tok.endsWith('.');
  }

  get typeNoPeriod(): string {
    return [...this.type].length > 1 && this.type.endsWith('.') ? this.type.slice(0, -1) : this.type;
  }

  get typeNoSentperiod(): string {
    return this.sentbreak ? this.typeNoPeriod : this.type;
  }

  get firstUpper(): boolean {
    return RE_FIRST_UPPER.test(this.tok);
  }

  get firstLower(): boolean {
    return RE_FIRST_LOWER.test(this.tok);
  }

  get isEllipsis(): boolean {
    return RE_ELLIPSIS.test(this.tok);
  }

  get isInitial(): boolean {
    return RE_INITIAL.test(this.tok);
  }
}

function tokenizeWords(text: string): PunktToken[] {
  const tokens: PunktToken[] = [];
  for (const line of text.split('\n')) {
    if (pythonStrip(line) === '') continue;
    for (const tok of punktWordTokenize(line)) tokens.push(new PunktToken(tok));
  }
  return tokens;
}

function firstPass(tok: PunktToken, params: PunktParameters): void {
  const t = tok.tok;
  if (SENT_END_CHARS.has(t)) tok.sentbreak = true;
  else if (tok.isEllipsis) tok.ellipsis = true;
  else if (tok.periodFinal && !t.endsWith('..')) {
    const stem = t.slice(0, -1).toLowerCase();
    const lastPart = stem.split('-').at(-1)!;
    if (params.abbrevTypes.has(stem) || params.abbrevTypes.has(lastPart)) tok.abbr = true;
    else tok.sentbreak = true;
  }
}

function orthoHeuristic(tok: PunktToken, params: PunktParameters): boolean | 'unknown' {
  if (ORTHO_PUNCTUATION.has(tok.tok)) return false;
  const context = params.orthoContext.get(tok.typeNoSentperiod) ?? 0;
  if (tok.firstUpper && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
  if (tok.firstLower && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) return false;
  return 'unknown';
}

function secondPass(tok1: PunktToken, tok2: PunktToken | undefined, params: PunktParameters): void {
  if (!tok2 || !tok1.periodFinal) return;
  const typ = tok1.typeNoPeriod;
  const nextTyp = tok2.typeNoSentperiod;
  const isInitial = tok1.isInitial;
  if (params.collocations.has(`${typ}\t${nextTyp}`)) {
    tok1.sentbreak = false;
    tok1.abbr = true;
    return;
  }
  if ((tok1.abbr || tok1.ellipsis) && !isInitial) {
    const starter = orthoHeuristic(tok2, params);
    if (starter === true) {
      tok1.sentbreak = true;
      return;
    }
    if (tok2.firstUpper && params.sentStarters.has(nextTyp)) {
      tok1.sentbreak = true;
      return;
    }
  }
  if (isInitial || typ === '##number##') {
    const starter = orthoHeuristic(tok2, params);
    if (starter === false) {
      tok1.sentbreak = false;
      tok1.abbr = true;
      return;
    }
    if (starter === 'unknown' && isInitial && tok2.firstUpper && !((params.orthoContext.get(nextTyp) ?? 0) & ORTHO_LC)) {
      tok1.sentbreak = false;
      tok1.abbr = true;
    }
  }
}

function textContainsSentbreak(text: string, params: PunktParameters): boolean {
  const tokens = tokenizeWords(text);
  for (const tok of tokens) firstPass(tok, params);
  let found = false;
  for (let i = 0; i < tokens.length; i++) {
    secondPass(tokens[i]!, tokens[i + 1], params);
    if (found) return true;
    if (tokens[i]!.sentbreak) found = true;
  }
  return false;
}

function lastAsciiWhitespaceIndex(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (ASCII_WHITESPACE.has(text[i]!)) return i;
  return 0;
}

interface EndContext {
  end: number;
  nextTokStart: number | undefined;
  context: string;
}

function potentialEndContexts(text: string): EndContext[] {
  const out: EndContext[] = [];
  let prevStart = 0;
  let prevStop = 0;
  let prev: RegExpExecArray | undefined;
  const emit = (m: RegExpExecArray, start: number, stop: number): void => {
    const nextTok = m.indices!.groups!.next_tok;
    out.push({
      end: m.index + m[0].length,
      nextTokStart: nextTok ? nextTok[0] : undefined,
      context: text.slice(start, stop) + m[0] + m.groups!.after_tok!,
    });
  };
  for (const m of text.matchAll(PERIOD_CONTEXT)) {
    const before = text.slice(prevStop, m.index);
    let wordStart = lastAsciiWhitespaceIndex(before);
    if (wordStart) wordStart += prevStop + 1;
    else wordStart = prevStart;
    if (prev && prevStop <= wordStart) emit(prev, prevStart, prevStop);
    prev = m;
    prevStart = wordStart;
    prevStop = m.index;
  }
  if (prev) emit(prev, prevStart, prevStop);
  return out;
}

/** Sentence spans [start, stop) before boundary realignment. */
function slicesFromText(text: string, params: PunktParameters): Array<[number, number]> {
  const slices: Array<[number, number]> = [];
  let lastBreak = 0;
  for (const ctx of potentialEndContexts(text)) {
    if (textContainsSentbreak(ctx.context, params)) {
      slices.push([lastBreak, ctx.end]);
      lastBreak = ctx.nextTokStart ?? ctx.end;
    }
  }
  slices.push([lastBreak, pythonRstrip(text).length]);
  return slices;
}

function realignBoundaries(text: string, slices: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let realign = 0;
  for (let i = 0; i < slices.length; i++) {
    const s1: [number, number] = [slices[i]![0] + realign, slices[i]![1]];
    const s2 = slices[i + 1];
    if (!s2) {
      if (text.slice(s1[0], s1[1])) out.push(s1);
      continue;
    }
    const m = BOUNDARY_REALIGNMENT.exec(text.slice(s2[0], s2[1]));
    if (m) {
      out.push([s1[0], s2[0] + pythonRstrip(m[0]).length]);
      realign = m[0].length;
    } else {
      realign = 0;
      if (text.slice(s1[0], s1[1])) out.push(s1);
    }
  }
  return out;
}

/** nltk sent_tokenize(text) with the given (default: English) Punkt parameters. */
export function punktSentences(text: string, params: PunktParameters = englishPunktParameters()): string[] {
  return realignBoundaries(text, slicesFromText(text, params)).map(([start, stop]) => text.slice(start, stop));
}
