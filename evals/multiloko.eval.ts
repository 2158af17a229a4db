// MultiLoKo as tests. Edit freely, or select without editing: LOKAL_LANGUAGES=italian,french LOKAL_SUBSETS=local
// LOKAL_LIMIT=20 LOKAL_MODEL=replay:predictions.jsonl npx vitest run --project evals
import { multilokoSuite } from '../src/vitest/index.ts';

await multilokoSuite({ split: 'dev' });
