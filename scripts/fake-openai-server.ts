// Runs the toy OpenAI-compatible server (test/support/fakeOpenAIServer.ts) for trying `openai:` end to end:
//   npx tsx scripts/fake-openai-server.ts [--port 8011] [--latency-ms 0] [--api-key KEY]
//   OPENAI_BASE_URL=http://127.0.0.1:8011/v1 LOKAL_MODEL=openai:toy npx vitest run evals
import { parseArgs } from 'node:util';
import { startFakeOpenAIServer } from '../test/support/fakeOpenAIServer.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '8011' }, 'latency-ms': { type: 'string', default: '0' }, 'api-key': { type: 'string' } },
});
const port = Number(values.port);
const latencyMs = Number(values['latency-ms']);
if (!Number.isInteger(port) || port < 0 || !Number.isFinite(latencyMs) || latencyMs < 0) {
  console.error('usage: fake-openai-server [--port N] [--latency-ms MS] [--api-key KEY]');
  process.exit(2);
}
const server = await startFakeOpenAIServer({ port, latencyMs, apiKey: values['api-key'] });
console.log(`toy OpenAI-compatible server at ${server.url} (Ctrl-C to stop)`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
