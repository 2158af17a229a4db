// The physical cores the process may use, from /proc/self/status and sysfs: hyperthreads of a core count once, CPUs
// outside the affinity mask not at all, and a machine without those files leaves onnxruntime's default.
import { describe, expect, test } from 'vitest';
import { countPhysicalCores, parseCpuList, physicalCores } from '../../src/models/physicalCores.ts';

/** A fake /proc and sysfs: the allowed list, and per CPU its (package, core). */
function files(allowed: string, topology: Record<number, [number, number]>): (file: string) => string {
  return (file) => {
    if (file === '/proc/self/status') return `Name:\tnode\nCpus_allowed:\tff\nCpus_allowed_list:\t${allowed}\nMems_allowed_list:\t0\n`;
    const match = /cpu(\d+)\/topology\/(physical_package_id|core_id)$/u.exec(file);
    const cpu = match && topology[Number(match[1])];
    if (!cpu) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
    return `${match![2] === 'physical_package_id' ? cpu[0] : cpu[1]}\n`;
  };
}

describe('physicalCores', () => {
  test('CPU lists: single CPUs and ranges', () => {
    expect(parseCpuList('0-3,8,10-11\n')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList('5')).toEqual([5]);
    expect(() => parseCpuList('0-3,x')).toThrow(/not a CPU list/);
  });

  test('hyperthreads of one core count once; the same core number in another package is another core', () => {
    expect(countPhysicalCores([0, 1, 2, 3], (cpu) => `0:${cpu % 2}`)).toBe(2);
    expect(countPhysicalCores([0, 1, 2, 3], (cpu) => `${cpu >> 1}:0`)).toBe(2);
  });

  test('from /proc and sysfs: two cores of one thread each; 4 hyperthreads on 2 cores; only the allowed CPUs', () => {
    expect(physicalCores(files('0-1', { 0: [0, 0], 1: [0, 1] }))).toBe(2);
    expect(physicalCores(files('0-3', { 0: [0, 0], 1: [0, 1], 2: [0, 0], 3: [0, 1] }))).toBe(2);
    expect(physicalCores(files('2', { 0: [0, 0], 1: [0, 1], 2: [0, 2] }))).toBe(1);
  });

  test('unreadable topology or no Linux files: undefined (onnxruntime chooses)', () => {
    expect(physicalCores(files('0-1', { 0: [0, 0] }))).toBeUndefined();
    expect(physicalCores(() => { throw new Error('ENOENT'); })).toBeUndefined();
    expect(physicalCores(() => 'Name:\tnode\n')).toBeUndefined();
  });
});
