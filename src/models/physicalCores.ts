// The physical cores this process may run on, read from Linux's sysfs. onnxruntime's own default (cpuinfo's core count,
// else half the logical CPUs) came out as 1 on a 2-core AMD EPYC VM, leaving half the machine idle.
import { readFileSync } from 'node:fs';

/** CPU numbers of a Linux CPU list (`0-3,8,10-11`, as /proc/self/status's Cpus_allowed_list writes them). */
export function parseCpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/u.exec(part.trim());
    if (!match) throw new Error(`not a CPU list: ${JSON.stringify(text)}`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Distinct (package, core) pairs among `cpus`: hyperthreads of one core count once. */
export function countPhysicalCores(cpus: readonly number[], coreOf: (cpu: number) => string): number {
  return new Set(cpus.map(coreOf)).size;
}

/**
 * The physical cores among the CPUs this process may use, or undefined where Linux's /proc and sysfs are not there to
 * read (then onnxruntime's own default stands).
 */
export function physicalCores(read: (file: string) => string = (file) => readFileSync(file, 'utf8')): number | undefined {
  try {
    const allowed = /^Cpus_allowed_list:\s*(\S+)\s*$/mu.exec(read('/proc/self/status'));
    if (!allowed) return undefined;
    const topology = (cpu: number, name: string) => read(`/sys/devices/system/cpu/cpu${cpu}/topology/${name}`).trim();
    const count = countPhysicalCores(parseCpuList(allowed[1]!), (cpu) => `${topology(cpu, 'physical_package_id')}:${topology(cpu, 'core_id')}`);
    return count > 0 ? count : undefined;
  } catch {
    return undefined;
  }
}
