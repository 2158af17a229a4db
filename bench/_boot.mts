import { headlineIntervals } from '../src/benchmarks/multiloko/intervals.ts';
import { MULTILOKO_LANGUAGES } from './replay.ts';
const subsets: any[] = [];
const mk = (key: string, source: string, translated: boolean) => subsets.push({ aggregate: { key, sourceLanguage: source, translated, means: { em: 0 } }, records: Array.from({ length: 250 }, (_, i) => ({ id: `${String(i).padStart(3, '0')}_${source}.txt`, scores: { em: (i * 7 + key.length) % 3 === 0 ? 1 : 0 } })) });
for (const l of MULTILOKO_LANGUAGES) mk(l, l, false);
for (const l of MULTILOKO_LANGUAGES) { if (l === 'english') continue; for (const t of ['human', 'machine']) { mk(`${l}_translated_${t}_english`, l, true); mk(`english_translated_${t}_${l}`, 'english', true); } }
for (let k = 0; k < 4; k++) { const t = performance.now(); const r = headlineIntervals(subsets); console.log((performance.now() - t).toFixed(0), 'ms', JSON.stringify(r).length, JSON.stringify(r!.figures.average_em), JSON.stringify(r!.figures['mte_human:italian'])); }
import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2] ?? '/tmp/bb/out.json', JSON.stringify(headlineIntervals(subsets)));
