// Redaction end to end: a replay run with LOKAL_REDACT=on (strict, so wrong answers fail with messages, against a
// baseline, with the json, junit and blob reporters and a GitHub step summary) writes no question or target string of the
// data into any file it writes, nor into its terminal output; the same run without redaction does (the control). A
// redacted run against that unredacted run as its baseline quotes none of the baseline's answers either.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { redactedText, resolveRedaction } from '../../src/core/redact.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { MULTILOKO_EVAL, runVitest, writeDataset, writeJsonl, type GeneratedSubset } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Words that occur nowhere else (not hex, not English), so a hit can only be the data leaking.
const WORDS = ['Zorvexa', 'Quillonde', 'Plumbrikt', 'Vextrano', 'Gravulon', 'Snorquel', 'Tiwzapel', 'Jumplork'];
const subsets: GeneratedSubset[] = ['italian', 'french'].map((language, l) => ({
  key: language,
  folder: language,
  fileName: 'dev.jsonl',
  items: Array.from({ length: 8 }, (_, i) => ({
    id: `${language}-${i}`,
    question: `Domanda ${WORDS[(i + l) % 8]} numero ${i} di ${language}?`,
    output_type: 'nome',
    targets: [`${WORDS[(i + 3 + l) % 8]} Kastel ${i}`, `Ponte ${WORDS[(i + 5) % 8]}`],
  })),
}));
const questions = subsets.flatMap((s) => s.items.map((i) => i.question));
const targets = subsets.flatMap((s) => s.items.flatMap((i) => i.targets));

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const file = path.join(root, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** A replay run writing everything it can; returns every text it wrote or printed, by where. */
async function run(name: string, redact: 'on' | 'off' | 'auto', extra: Record<string, string> = {}, against?: { baseline: string; right: 0 | 1 }): Promise<Map<string, string>> {
  const root = path.join(dir, name);
  const data = writeDataset(root, subsets);
  const predictions = path.join(root, 'predictions.jsonl');
  // Half the answers right (the first target as is), half wrong (the other target of the next item).
  const right = against?.right ?? 0;
  writeJsonl(predictions, subsets.flatMap((s) => s.items.map((item, i) => ({ language: s.key, id: item.id, prediction: i % 2 === right ? item.targets[0]! : s.items[(i + 1) % 8]!.targets[1]! }))));
  const baseline = against?.baseline ?? path.join(root, 'baseline.json');
  if (!against) writeFileSync(baseline, JSON.stringify(Object.fromEntries(subsets.map((s) => [s.key, { ...Object.fromEntries(s.items.map((item) => [item.id, { em: 0, prediction: 'x' }])), em: 0 }]))));
  const out = path.join(root, 'out');
  const summary = path.join(root, 'step-summary.md');
  writeFileSync(summary, '');
  const child = await runVitest(
    ['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${path.join(out, 'vitest.json')}`, '--reporter=junit', `--outputFile.junit=${path.join(out, 'junit.xml')}`, '--reporter=blob', `--outputFile.blob=${path.join(out, 'blob.json')}`],
    { LOKAL_MULTILOKO: data, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: out, LOKAL_STRICT: '1', LOKAL_BASELINE: baseline, GITHUB_STEP_SUMMARY: summary, LOKAL_REDACT: redact, ...extra },
  );
  expect(child.code, `${child.stdout.slice(-2000)}\n${child.stderr.slice(-2000)}`).toBe(1);
  const texts = new Map<string, string>([['stdout', child.stdout], ['stderr', child.stderr], [summary, readFileSync(summary, 'utf8')]]);
  // Every file the run wrote anywhere under its folder (the inputs it was given left out): the results, the report,
  // the JUnit and json reporters' files, and the response cache where the run keeps one.
  const inputs = new Set([predictions, baseline, summary]);
  for (const file of filesUnder(root)) if (!inputs.has(file) && !file.startsWith(data + path.sep)) texts.set(file, readFileSync(file, 'utf8'));
  return texts;
}

/** Every (where, string) pair where a question or target of the data (or a question's first words) occurs. */
function leaks(texts: Map<string, string>): string[] {
  const needles = [...questions, ...questions.map((q) => q.split(' numero')[0]!), ...targets];
  return [...texts].flatMap(([where, text]) => needles.filter((n) => text.includes(n)).map((n) => `${path.basename(where)}: ${n}`));
}

describe('LOKAL_REDACT', () => {
  test('a redacted run writes and prints no question or target string; the same run without redaction does', async () => {
    const redacted = await run('redacted', 'on');
    expect([...redacted.keys()].map((f) => path.basename(f)).sort()).toEqual(expect.arrayContaining(['junit.xml', 'blob.json', 'multiloko.json', 'report.html', 'vitest.json', 'step-summary.md']));
    expect(leaks(redacted)).toEqual([]);
    // The figures are still there: EM is exactly half (every other answer right), and the run says it redacted.
    const results = JSON.parse(redacted.get(path.join(dir, 'redacted', 'out', 'multiloko.json'))!);
    expect(results.italian.em).toBe(0.5);
    expect(results.italian['italian-0'].targets[0]).toMatch(/^sha256:[0-9a-f]{12}$/u);
    // What the report shows of an item (question, raw output, answer) is there as hashes only.
    expect(Object.values(results.lokal.items.italian['italian-0'])).toEqual([expect.stringMatching(/^sha256:[0-9a-f]{12}$/u), expect.stringMatching(/^sha256:[0-9a-f]{12}$/u), expect.stringMatching(/^sha256:[0-9a-f]{12}$/u)]);
    expect(redacted.get('stdout')).toContain('lokal: MultiLoKo redacted (LOKAL_REDACT=on)');
    expect(redacted.get(path.join(dir, 'redacted', 'out', 'report.html'))).toContain('<meta name="robots" content="noindex">');

    const plain = await run('plain', 'off');
    expect(leaks(plain).length).toBeGreaterThan(questions.length);

    // LOKAL_REDACT=auto in a public repository against the unredacted run, every item flipped (the other half right):
    // the flips in the results file and the report's baseline column carry the baseline's answers as hashes only.
    const event = path.join(dir, 'public-event.json');
    writeFileSync(event, JSON.stringify({ repository: { private: false, visibility: 'public' } }));
    const vsPlain = await run('vs-plain', 'auto', { GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: event }, { baseline: path.join(dir, 'plain', 'out', 'multiloko.json'), right: 1 });
    expect(leaks(vsPlain)).toEqual([]);
    const flips = JSON.parse(vsPlain.get(path.join(dir, 'vs-plain', 'out', 'multiloko.json'))!).summary.baseline.flips.italian;
    expect(flips.worse).toHaveLength(4);
    expect(flips.better).toHaveLength(4);
    const plainItalian0 = JSON.parse(plain.get(path.join(dir, 'plain', 'out', 'multiloko.json'))!).italian['italian-0'];
    expect(flips.worse.find((f: { id: string }) => f.id === 'italian-0').baseline).toBe(redactedText(plainItalian0.prediction));
  }, 360_000);

  test('a model run: the prompts the model saw are recorded as hashes, never as text', async () => {
    const model = path.join(dir, 'tiny-model');
    writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
    const cache = path.join(dir, 'model', '.lokal-cache', 'responses.jsonl');
    const redacted = await run('model', 'on', { LOKAL_MODEL: `transformers:${model}`, LOKAL_PROMPT: 'chat', LOKAL_CACHE: 'readwrite', LOKAL_CACHE_FILE: cache });
    // The response cache is the one file with the data's text: a local working file beside the data (the chat template
    // as rendered, the replies), outside the output folder and never published by the run (README, Redaction).
    expect([...redacted.keys()]).toContain(cache);
    expect(leaks(redacted).filter((leak) => leak.startsWith('responses.jsonl: '))).not.toEqual([]);
    expect(leaks(new Map([...redacted].filter(([file]) => file !== cache)))).toEqual([]);
    expect(path.relative(path.join(dir, 'model', 'out'), cache).startsWith('..')).toBe(true);
    const results = JSON.parse(redacted.get(path.join(dir, 'model', 'out', 'multiloko.json'))!);
    expect(results.italian['italian-0'].model_input).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/u) });
  }, 240_000);
});

describe('LOKAL_REDACT: provider errors', () => {
  let server: FakeServer;
  beforeAll(async () => {
    // A server that refuses every item's request quoting the prompt, as some do (`400 … Your prompt was: …`); the
    // capability probe's own requests (no question of the data in them) are answered.
    server = await startFakeOpenAIServer({
      fault: (_, body) => {
        const sent = JSON.stringify(body.messages ?? body.prompt ?? '');
        return sent.includes('Domanda') ? { kind: 'status', status: 400, body: JSON.stringify({ error: { message: `Invalid request. Your prompt was: ${sent}`, type: 'invalid_request_error' } }) } : undefined;
      },
    });
  });
  afterAll(() => server?.close());
  const model = () => ({ LOKAL_MODEL: 'openai:toy-model', OPENAI_BASE_URL: server.url, LOKAL_CACHE: 'off', LOKAL_PROMPT: 'chat' });

  test('a redacted run fails each item with the HTTP status and kind only: JUnit, the json reporter and CI output quote no prompt', async () => {
    const redacted = await run('server-error', 'on', model());
    expect(leaks(redacted)).toEqual([]);
    const junit = redacted.get(path.join(dir, 'server-error', 'out', 'junit.xml'))!;
    expect(junit).toContain('[openai] HTTP 400, http error (its message is withheld');
    // The control: without redaction the item's failure quotes the server's message, prompt and all.
    const plain = await run('server-error-plain', 'off', model());
    expect(plain.get(path.join(dir, 'server-error-plain', 'out', 'junit.xml'))).toContain('Your prompt was');
    expect(leaks(plain).some((leak) => leak.startsWith('junit.xml: '))).toBe(true);
  }, 240_000);

  test('off CI the full message still reaches the terminal (stderr), and only there', async () => {
    const local = await run('server-error-local', 'on', { ...model(), CI: '' });
    expect(local.get('stderr')).toContain('lokal: withheld from the test reports (redaction): [openai] POST');
    expect(leaks(local).filter((leak) => !leak.startsWith('stderr: '))).toEqual([]);
    expect(leaks(local).some((leak) => leak.startsWith('stderr: '))).toBe(true);
  }, 240_000);
});

describe('resolveRedaction', () => {
  const payload = (repository: object) => {
    const file = path.join(dir, `event-${Math.random()}.json`);
    writeFileSync(file, JSON.stringify({ repository }));
    return file;
  };

  test('auto: on for a public GitHub repository, off for a private one, on in CI of unknown visibility, off locally', () => {
    expect(resolveRedaction('auto', { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_PATH: payload({ private: false, visibility: 'public' }) }).on).toBe(true);
    expect(resolveRedaction('auto', { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_PATH: payload({ private: true }) }).on).toBe(false);
    expect(resolveRedaction('auto', { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_PATH: path.join(dir, 'no-such-file') }).on).toBe(true);
    expect(resolveRedaction(undefined, { CI: '1' })).toEqual({ on: true, reason: "LOKAL_REDACT=auto: CI is set and the repository's visibility is unknown" });
    expect(resolveRedaction('auto', { CI: 'false' }).on).toBe(false);
    expect(resolveRedaction(undefined, {}).on).toBe(false);
    expect(resolveRedaction('on', {}).on).toBe(true);
    expect(resolveRedaction('off', { CI: '1' }).on).toBe(false);
  });
});
