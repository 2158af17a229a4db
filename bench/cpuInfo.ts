// The machine the figures come from, printed at the top of `npm run bench`: quantised kernels (onnxruntime's
// MatMulInteger / MatMulNBits, llama.cpp's Q8_0 / Q4_0 dot products) differ most by the vector extensions they find.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { physicalCores } from '../src/models/physicalCores.ts';

/** Extensions that decide int8/int4 matrix speed (Linux /proc/cpuinfo flag names). */
const FLAGS = ['avx2', 'fma', 'f16c', 'avx512f', 'avx512bw', 'avx512_vnni', 'avx_vnni', 'avx512_bf16', 'amx_tile', 'amx_int8', 'amx_bf16'];

export interface CpuInfo {
  model: string;
  /** Cores this process may use (cgroup / affinity aware), and all the machine reports. */
  usable: number;
  logical: number;
  /** Each of FLAGS: present or not; undefined where the flags cannot be read (not Linux). */
  flags: Record<string, boolean> | undefined;
}

export function cpuInfo(): CpuInfo {
  const model = cpus()[0]?.model.trim() || 'unknown CPU';
  let flags: Record<string, boolean> | undefined;
  try {
    const line = /^flags\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1];
    if (line !== undefined) {
      const have = new Set(line.split(/\s+/));
      flags = Object.fromEntries(FLAGS.map((f) => [f, have.has(f)]));
    }
  } catch {
    // not Linux: flags unknown
  }
  return { model, usable: availableParallelism(), logical: cpus().length, flags };
}

/** One line: model, cores usable of those present, threads the engines are told to use, and the flags. */
export function cpuLine(info: CpuInfo = cpuInfo(), threads = process.env.BENCH_GENERATION_THREADS): string {
  const flags = info.flags ? FLAGS.map((f) => `${f} ${info.flags![f] ? 'yes' : 'no'}`).join(', ') : 'flags unknown (no /proc/cpuinfo)';
  const defaults = `each engine's default (transformers: ${physicalCores() ?? "onnxruntime's"} for weights of 64 MiB or more, else 1)`;
  return `CPU: ${info.model}; ${info.usable} of ${info.logical} cores usable; engine threads ${threads ? threads : defaults}; ${flags}`;
}
