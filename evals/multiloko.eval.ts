// MultiLoKo as tests. Edit freely, or select without editing: LOKAL_LANGUAGES=italian,french LOKAL_SUBSETS=local
// LOKAL_LIMIT=20 LOKAL_MODEL=openai:<model> LOKAL_PROMPT=chat npx vitest run --project evals
// (default model: transformers:onnx-community/Qwen2.5-0.5B-Instruct; every setting is in the README)
import { multiloko } from 'vitest-lokal/benchmarks';
import { benchmarkSuite } from 'vitest-lokal/vitest';

await benchmarkSuite(multiloko, { multiloko: { split: 'dev' } });
