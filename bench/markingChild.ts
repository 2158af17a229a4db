// One process of `npm run bench -- marking`: the provider answers the first 32 Italian MultiLoKo dev items (base
// mode) as a Vitest file's concurrent item tests ask (16 in flight, each next one asked as one ends), a round to warm
// up and a timed round, and prints one JSON line: the timed round's seconds, what the load did to V8's concurrent
// marking, the answers. The parent starts it with or without `--concurrent-marking`.
import { TransformersProvider } from '../src/models/transformers.ts';
import { multilokoRequests } from './generation.ts';

const [dir, cacheDir, data, itemsText, tokensText] = process.argv.slice(2);
const requests = (await multilokoRequests(data!, Number(itemsText), Number(tokensText))).base;
const provider = new TransformersProvider(dir!, { env: {}, cacheDir, log: () => undefined });
await provider.load();

async function round(): Promise<{ seconds: number; answers: string[] }> {
  const answers: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      answers[i] = (await provider.generate([requests[i]!]))[0]!.text;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { seconds: (performance.now() - started) / 1000, answers };
}

await round();
const timed = await round();
console.log(JSON.stringify({ ...timed, marking: provider.concurrentMarking, threads: provider.threads }));
await provider.close();
