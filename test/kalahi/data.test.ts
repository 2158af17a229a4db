import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/errors.ts';
import {
  KALAHI_FILES,
  loadKalahi,
  parseKalahiCsv,
  parseKalahiResponsesJsonl,
  readKalahiResponses,
} from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { formatBestAnswer, splitMultiAnswer } from '../../src/benchmarks/kalahi/metrics/index.ts';
import { titleUnless } from '../support/sharedData.ts';

const HEADER = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';

function errorOf(fn: () => unknown): DataError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DataError) return error;
    throw error;
  }
  throw new Error('expected a DataError');
}

describe('reference formatting', () => {
  test('split on ";", Python strip, drop empty parts, close with "."', () => {
    // "\u00a0" and "\u2003" are Python whitespace; "?" endings get "." too; an empty part between ";;" is dropped
    expect(splitMultiAnswer('\u00a0Oo;  Hindi? ;; Siguro.\u2003;')).toEqual(['Oo.', 'Hindi?.', 'Siguro.']);
    // U+200B is not whitespace in Python: kept
    expect(splitMultiAnswer('\u200bOo')).toEqual(['\u200bOo.']);
    expect(formatBestAnswer('  Mag-aral ka nang mabuti  ')).toBe('Mag-aral ka nang mabuti.');
    expect(() => formatBestAnswer(' \t')).toThrow(/IndexError/);
  });
});

describe('parseKalahiCsv', () => {
  test('quoted multi-line fields, answers formatted, best index, start line of each record', () => {
    const csv = [
      HEADER,
      '0101000100,01010001,ethics,career,"Estudyante ako.\nAno ang gagawin ko?",Mag-aral ka,"Mag-aral ka;Humingi ng\ntulong",Huwag mag-aral;Tumigil',
      '0101000101,01010001,ethics,career,"Ano, ""po""?",Oo.,Hindi;Oo.,Siguro',
    ].join('\n');
    const d = parseKalahiCsv(csv, 'fixture/filipino.csv');
    expect(d.variant).toBe('full');
    expect(d.rows).toHaveLength(2);
    const [a, b] = d.rows;
    expect(a!.prompt).toBe('Estudyante ako.\nAno ang gagawin ko?');
    expect(a!.relevantAnswers).toEqual(['Mag-aral ka.', 'Humingi ng\ntulong.']);
    expect(a!.irrelevantAnswers).toEqual(['Huwag mag-aral.', 'Tumigil.']);
    expect(a!.bestAnswer).toBe('Mag-aral ka.');
    expect(a!.bestIndex).toBe(0);
    expect(a!.raw.relevantAnswers).toBe('Mag-aral ka;Humingi ng\ntulong');
    // record 1 starts on line 2 and spans lines 2–4; record 2 starts on line 5
    expect([a!.line, b!.line]).toEqual([2, 5]);
    expect(b!.prompt).toBe('Ano, "po"?');
    expect(b!.bestIndex).toBe(1);
    expect(b!.promptVariationId).toBe('0101000101'); // leading zero kept
  });

  test('the unenriched base column is parsed; variant inferred from the file name', () => {
    const csv = [
      'prompt_variation_id,prompt_id,base,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers',
      '1,1,TRUE,ethics,t,P?,A,A;B,C',
      '2,1,FALSE,ethics,t,P?,A,A;B,C',
    ].join('\n');
    const d = parseKalahiCsv(csv, 'x/filipino_unenriched.csv');
    expect(d.variant).toBe('unenriched');
    expect(d.rows.map((r) => r.base)).toEqual([true, false]);
    const bad = errorOf(() => parseKalahiCsv(csv.replace('FALSE', 'maybe'), 'u.csv'));
    expect(bad.message).toMatch(/u\.csv:3 field "base": row 2: must be TRUE or FALSE/);
  });

  test('errors name file, row, line and column', () => {
    // row 1 spans lines 2–3, so row 2 starts on line 4
    const notAmong = errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,ethics,t,"P\nQ",A,A;B,C\n2,1,ethics,t,P,Z,Y,C`, 'k.csv'));
    expect(notAmong.message).toContain('k.csv:4 field "best_answer": row 2 (prompt_variation_id 2)');
    expect(errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,ethics,t,P,Z,A;B,C`, 'k.csv')).message).toMatch(/k\.csv:2 .*"Z\." is not among the 2/);
    const emptyRelevant = errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,ethics,t,P,A, ; ,C`, 'k.csv'));
    expect(emptyRelevant.field).toBe('relevant_answers');
    const emptyBest = errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,ethics,t,P, ,A,C`, 'k.csv'));
    expect(emptyBest.field).toBe('best_answer');
    expect(emptyBest.line).toBe(2);
    const missing = errorOf(() => parseKalahiCsv('prompt_variation_id,prompt\n1,x', 'k.csv'));
    expect(missing.message).toMatch(/missing column "prompt_id"/);
    const ragged = errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,ethics`, 'k.csv'));
    expect(ragged.message).toMatch(/^k\.csv.*not a valid CSV/);
    const dup = errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,e,t,P,A,A,C\n1,1,e,t,P,A,A,C`, 'k.csv'));
    expect(dup.code).toBe('duplicate-id');
    expect(dup.message).toContain('repeats row 1');
  });

  test('an empty irrelevant list loads (the generation metrics skip such rows)', () => {
    expect(parseKalahiCsv(`${HEADER}\n1,1,e,t,P,A,A,`, 'k.csv').rows[0]!.irrelevantAnswers).toEqual([]);
    // The prompt reaches the model as written (pandas does not strip); only the answer lists are stripped and split.
    const spaced = parseKalahiCsv(`${HEADER}\n1,1,e,t," Ano ang dapat gawin?\u3000",A,A,C`, 'k.csv').rows[0]!;
    expect(spaced.prompt).toBe(' Ano ang dapat gawin?\u3000');
    // U+0085 and U+001F are Python whitespace (JS trim keeps them): a best answer of only those is empty
    expect(errorOf(() => parseKalahiCsv(`${HEADER}\n1,1,e,t,P,\u0085\u001f,A,C`, 'k.csv')).message).toMatch(/k\.csv:2 .*best_answer.*must not be empty/);
  });
});

describe('loadKalahi: locating the files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kalahi-'));
  writeFileSync(join(dir, KALAHI_FILES.full), `${HEADER}\n1,1,e,t,P,A,A,C\n`);

  test('folder + variant, env LOKAL_KALAHI, explicit file', async () => {
    expect((await loadKalahi(dir)).rows).toHaveLength(1);
    expect((await loadKalahi(undefined, undefined, { env: { LOKAL_KALAHI: dir } })).file).toBe(join(dir, KALAHI_FILES.full));
    expect((await loadKalahi(join(dir, KALAHI_FILES.full))).variant).toBe('full');
  });

  test('clear errors when files are missing', async () => {
    await expect(loadKalahi(dir, 'unenriched')).rejects.toThrow(/filipino_unenriched\.csv is not in/);
    await expect(loadKalahi(undefined, undefined, { env: {}, cwd: dir })).rejects.toThrow(/Kalahi data not found .*LOKAL_KALAHI/);
    await expect(loadKalahi(join(dir, KALAHI_FILES.full), 'unenriched')).rejects.toThrow(/full variant but variant unenriched/);
  });
});

const DATA_DIR = fileURLToPath(new URL('../../../shared/data/kalahi', import.meta.url));
const HAVE_DATA = existsSync(join(DATA_DIR, KALAHI_FILES.full));

function havePython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import csv'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// The reference's own formatting (kalahi utilities.py) run on Python's csv module: an independent parse of the files.
const PY_REFERENCE = `
import csv, json, sys
def split_multi_answer(ans, sep=';', close=True):
    out = []
    for a in ans.strip().split(sep):
        a = a.strip()
        if len(a):
            out.append(a if a[-1] == '.' else a + '.')
    return out
def format_best(b):
    b = b.strip()
    return b if b[-1] == '.' else b + '.'
rows = []
with open(sys.argv[1], encoding='utf-8', newline='') as f:
    for r in csv.DictReader(f):
        rel = split_multi_answer(r['relevant_answers'])
        best = format_best(r['best_answer'])
        rows.append([r['prompt_variation_id'], r['category'], r['prompt'], best, rel, split_multi_answer(r['irrelevant_answers']), rel.index(best)])
json.dump(rows, sys.stdout)
`;

describe.skipIf(!HAVE_DATA)(titleUnless(`real Kalahi CSVs (${DATA_DIR})`, join(DATA_DIR, KALAHI_FILES.full)), () => {
  const counts = { full: 150, partially_enriched: 150, unenriched: 85 } as const;
  for (const variant of Object.keys(counts) as Array<keyof typeof counts>) {
    test(`${variant}: ${counts[variant]} rows, best answer among relevant`, async () => {
      const d = await loadKalahi(DATA_DIR, variant);
      expect(d.rows).toHaveLength(counts[variant]);
      for (const r of d.rows) {
        expect(r.relevantAnswers[r.bestIndex]).toBe(r.bestAnswer);
        expect(r.relevantAnswers.length).toBeGreaterThan(0);
        expect(r.irrelevantAnswers.length).toBeGreaterThan(0);
      }
      if (variant === 'unenriched') expect(d.rows.every((r) => typeof r.base === 'boolean')).toBe(true);
    });
    test.skipIf(!havePython())(`${variant}: rows equal Python csv + the reference formatting (skipped: no python3 on PATH)`, async () => {
      const d = await loadKalahi(DATA_DIR, variant);
      const py = JSON.parse(execFileSync('python3', ['-c', PY_REFERENCE, d.file], { encoding: 'utf8', maxBuffer: 1 << 26 })) as unknown[];
      expect(py).toHaveLength(counts[variant]);
      expect(d.rows.map((r) => [r.promptVariationId, r.category, r.prompt, r.bestAnswer, r.relevantAnswers, r.irrelevantAnswers, r.bestIndex])).toEqual(py);
    });
  }
});

describe('responses JSONL reader', () => {
  test('rows with line numbers; extra fields allowed; blank lines skipped', () => {
    const rows = parseKalahiResponsesJsonl('{"prompt_variation_id":"0101000100","response":"Oo.","model":"m"}\n\n{"prompt_variation_id":"2","response":""}\n', 'r.jsonl');
    expect(rows).toEqual([
      { prompt_variation_id: '0101000100', response: 'Oo.', line: 1 },
      { prompt_variation_id: '2', response: '', line: 3 },
    ]);
  });

  test('errors name file, line and field', () => {
    expect(errorOf(() => parseKalahiResponsesJsonl('\n{"prompt_variation_id":101000100,"response":"x"}', 'r.jsonl')).message).toBe(
      'r.jsonl:2 field "prompt_variation_id": must be a string: a number loses the leading zeros of ids such as "0101000100"',
    );
    expect(errorOf(() => parseKalahiResponsesJsonl('{"prompt_variation_id":"1"}', 'r.jsonl')).message).toBe('r.jsonl:1 field "response": is missing');
    expect(errorOf(() => parseKalahiResponsesJsonl('{"prompt_variation_id":"1",', 'r.jsonl')).message).toMatch(/^r\.jsonl:1: malformed JSON/);
    expect(errorOf(() => parseKalahiResponsesJsonl('["x"]', 'r.jsonl')).message).toMatch(/^r\.jsonl:1: expected a JSON object/);
  });

  test('readKalahiResponses reports a missing file', async () => {
    await expect(readKalahiResponses('/nonexistent/responses.jsonl')).rejects.toThrow(/responses\.jsonl: cannot read/);
  });
});
