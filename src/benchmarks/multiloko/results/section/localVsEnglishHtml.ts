// The report's "Local vs English" section: per language a small table of questions right in both, in English only, in
// the language only and in neither, each count opening the list of its items, with McNemar's exact p.
import { formatMcNemarP } from '../localVsEnglishTable.ts';
import { escapeHtml, html, raw, type Html } from '../../../../report/escape.ts';
import type { MultiLoKoItemView } from './reportView.ts';
import type { VsEnglishLanguage, VsEnglishPair } from './localVsEnglishView.ts';

/** Question text beside an id in a cell's list, cut to this many code points. */
const QUESTION_SHOWN = 80;

function shortQuestion(item: MultiLoKoItemView | undefined): string {
  const q = item?.question;
  if (q === undefined) return '';
  const points = Array.from(q);
  return ` · ${escapeHtml(points.length > QUESTION_SHOWN ? `${points.slice(0, QUESTION_SHOWN - 1).join('')}…` : q)}`;
}

/**
 * A count that opens the list of its items: ids, with the question as the language's subset asks it where `questions`
 * is given (the one-sided cells; the others list ids alone, which keeps a full run's report small).
 */
function cell(key: string, ids: readonly string[], questions?: ReadonlyMap<string, MultiLoKoItemView>): Html {
  if (ids.length === 0) return html`<td class="num" data-key="${key}" data-value="0">0</td>`;
  const list = ids.map((id) => `<li><code>${escapeHtml(id)}</code>${questions ? shortQuestion(questions.get(id)) : ''}</li>`).join('');
  return html`<td class="num" data-key="${key}" data-value="${String(ids.length)}"><details><summary>${String(ids.length)}</summary><ul class="ids">${raw(list)}</ul></details></td>`;
}


function row(language: string, pair: VsEnglishPair): Html {
  const t = pair.table;
  const key = `vs_english.${language}.${pair.direction}.${pair.kind}`;
  const questions = new Map(pair.local.items.map((i) => [i.id, i]));
  const what = pair.direction === 'to-english' ? `${language}'s questions` : 'English questions';
  const unpaired = t.unpairedEnglish.length + t.unpairedLocal.length;
  return html`<tr><td>${what} · ${pair.kind} translation<br><span class="ci">${pair.local.name} vs ${pair.english.name}${unpaired ? ` (${unpaired} unpaired, left out)` : ''}</span></td><td class="num" data-key="${key}.paired">${String(t.paired)}</td>${cell(`${key}.both_right`, t.bothRight)}${cell(`${key}.english_only`, t.englishOnly, questions)}${cell(`${key}.local_only`, t.localOnly, questions)}${cell(`${key}.both_wrong`, t.bothWrong)}<td class="num" data-key="${key}.p" data-value="${String(t.p)}">${formatMcNemarP(t.p)}</td></tr>\n`;
}

/** The section; empty when no language has a question asked both in it and in English. */
export function localVsEnglishSection(languages: readonly VsEnglishLanguage[]): Html {
  if (languages.length === 0) return html``;
  return html`<section id="multiloko-local-vs-english"><h3>Local vs English, item by item</h3>
<p class="note">The same questions asked in the language and in English, paired by id: how many the model got right (EM) in both, in English only, in the language only, in neither. Open a count for its items (with their questions where the languages disagree). p: McNemar's exact two-sided test of the two one-sided counts (no difference between the languages beyond chance when p is large).</p>
${languages.map(
    (l) => html`<table class="vs-english" id="vs-english-${l.language}"><thead><tr><th>${l.language}</th><th class="num">Paired</th><th class="num">Right in both</th><th class="num">English only</th><th class="num">${l.language} only</th><th class="num">Wrong in both</th><th class="num">McNemar p</th></tr></thead>
<tbody>${l.pairs.map((p) => row(l.language, p))}</tbody></table>\n`,
  )}</section>`;
}
