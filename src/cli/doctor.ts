// `lokal doctor [--model <provider string>]`: what the configured (or given) model can do — the capabilities a run asks
// at collection, and whether two greedy calls agree — and which benchmark tasks and settings will work with it.
import { parseArgs } from 'node:util';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { kalahiModelRequirements } from '../benchmarks/kalahi/run/plan.ts';
import type { KalahiBudget, KalahiMCProtocol } from '../benchmarks/kalahi/settings.ts';
import type { ModelRequirement } from '../benchmarks/benchmark.ts';
import { splitModelList } from '../core/modelList.ts';
import { resolveSettingsTree, sharedSettings } from '../core/settings.ts';
import { CAPABILITIES, CAPABILITY_LABELS, capabilitiesPerServer, greedyRepeatable, modelCapabilities, type CapabilityName, type ModelCapabilities } from '../models/capabilities.ts';
import { lokalModelOptions, modelSpec, ModelUnusableError, openLokalModel } from '../models/open.ts';
import { probeProvider } from '../models/probe.ts';
import { specRow } from '../models/providers.ts';
import { UsageError } from './usageError.ts';

export const DOCTOR_USAGE = `usage: lokal doctor [--model <provider string>]
  A provider string is replay:<predictions file>, openai:<model> (with OPENAI_BASE_URL), transformers:<hub id|folder>
  or llama:<file.gguf|ollama:name>.
  Asks the model (default: LOKAL_MODEL / lokal.config.json, else the default model) what it supports — chat messages,
  a plain prompt, scoring given text (completions with echo + logprobs; vLLM's prompt_logprobs), per-token
  log-probabilities of generated text, and whether two greedy calls return the same text — and prints which benchmark
  tasks and settings will work with it. Several servers in OPENAI_BASE_URL: each is reached and its model ids listed;
  servers of different models are refused unless LOKAL_ALLOW_MIXED_SERVERS=1.
`;

/** One task or setting and whether the model can run it: `✓ Kalahi MC, LOKAL_KALAHI_MC=letter`, or ✗ with the reason. */
export interface DoctorVerdict {
  task: string;
  works: boolean;
  why?: string;
}

/** Which tasks and settings work with a model of these capabilities (the checks a run makes at collection). */
export function doctorVerdicts(spec: string, capabilities: ModelCapabilities): DoctorVerdict[] {
  const replay = specRow(spec)?.answersFromFile === true;
  const verdict = (task: string, needs: ModelRequirement[]): DoctorVerdict => {
    const missing = needs.find((n) => !capabilities[n.capability].supported);
    return missing ? { task, works: false, why: `needs: ${CAPABILITY_LABELS[missing.capability]} (${capabilities[missing.capability].how})` } : { task, works: true };
  };
  const out: DoctorVerdict[] = [];
  if (replay) {
    out.push({ task: 'MultiLoKo and Kalahi generation: the replies the file holds', works: true });
    out.push({ task: 'Kalahi MC (either protocol)', works: false, why: 'a predictions file holds no scores and no replies to lettered questions' });
    return out;
  }
  const needs = (capability: CapabilityName): ModelRequirement[] => [{ capability, problem: () => CAPABILITY_LABELS[capability] }];
  out.push(verdict('MultiLoKo, LOKAL_PROMPT=chat', needs('chat')));
  out.push(verdict('MultiLoKo, LOKAL_PROMPT=base', needs('prompt')));
  const kalahi = (tasks: Array<'mc' | 'generation'>, mcProtocol: KalahiMCProtocol, budget: KalahiBudget) => kalahiModelRequirements({ tasks, mcProtocol, budget }, spec);
  out.push(verdict('Kalahi MC, LOKAL_KALAHI_MC=logprobs (default)', kalahi(['mc'], 'logprobs', 'max_length')));
  out.push(verdict('Kalahi MC, LOKAL_KALAHI_MC=letter', kalahi(['mc'], 'letter', 'max_length')));
  out.push(verdict('Kalahi generation, LOKAL_KALAHI_BUDGET=max_length (default)', kalahi(['generation'], 'logprobs', 'max_length')));
  out.push(verdict('Kalahi generation, LOKAL_KALAHI_BUDGET=new_tokens', kalahi(['generation'], 'logprobs', 'new_tokens')));
  return out;
}

export async function doctorCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { model: { type: 'string', short: 'm' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(DOCTOR_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`lokal doctor: unexpected argument ${JSON.stringify(positionals[0])}`);
  const shared = sharedSettings(resolveSettingsTree(BENCHMARKS.map((b) => b.settings)));
  const specs = splitModelList(values.model ?? modelSpec(shared));
  if (specs.length > 1) throw new UsageError(`lokal doctor: asks one model at a time (got ${specs.length}: ${specs.join(', ')}); give one with --model`);
  const spec = specs[0]!;
  const configured = values.model !== undefined || shared.model !== undefined;
  // Never cached: the point is to ask the model now.
  const model = await openLokalModel(spec, { ...lokalModelOptions(shared), cache: undefined }).catch((error: unknown) => {
    // No model named and the default one unusable: the line names every provider, as a run's does.
    throw configured ? error : new ModelUnusableError(spec, false, error);
  });
  try {
    const servers = await probeProvider(model.kind, model.inner).catch((error: unknown) => {
      throw configured ? error : new ModelUnusableError(spec, false, error);
    });
    const capabilities = await modelCapabilities(model);
    const repeatable = await greedyRepeatable(model);
    const where = model.inner.describe().settings.baseUrl;
    const lines = [`lokal doctor: ${spec}${typeof where === 'string' ? ` at ${where}` : ''}`];
    if (servers && servers.length > 1) {
      // A pool (OPENAI_BASE_URL lists several): each server reached, and what it serves; capabilities are the first healthy one's.
      lines.push('servers:');
      for (const s of servers)
        lines.push(`  ${s.down === undefined ? '✓' : '✗'} ${s.server} — ${s.down ?? (s.serves !== undefined ? `serves ${s.serves}` : `reached; its models are unknown (${s.unlisted})`)}`);
    }
    lines.push('supports:');
    for (const name of CAPABILITIES) lines.push(`  ${capabilities[name].supported ? '✓' : '✗'} ${CAPABILITY_LABELS[name]} — ${capabilities[name].how}`);
    lines.push(`  ${repeatable.supported ? '✓' : '✗'} ${CAPABILITY_LABELS.deterministic} — ${repeatable.how}`);
    // A run asks the first healthy server only: a server of the pool that can do less fails items when it answers.
    const perServer = await capabilitiesPerServer(model);
    const differ = perServer.flatMap(({ server, capabilities: own }) =>
      CAPABILITIES.filter((name) => own[name].supported !== capabilities[name].supported).map((name) => `  ${own[name].supported ? '✓' : '✗'} ${server}: ${CAPABILITY_LABELS[name]} — ${own[name].how}`),
    );
    if (differ.length > 0) lines.push('servers that differ:', ...differ);
    lines.push('will work:');
    for (const v of doctorVerdicts(spec, capabilities)) lines.push(`  ${v.works ? '✓' : '✗'} ${v.task}${v.why ? ` — ${v.why}` : ''}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await model.provider.close?.();
  }
}
