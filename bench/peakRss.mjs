// A process's own peak resident memory in MiB. Linux's getrusage maxrss (Node's resourceUsage().maxRSS) survives
// exec: a child started by a large parent reports the parent's peak if its own is lower (a 40 MiB child of a 3 GB
// parent said 3,076 MiB). /proc/self/status's VmHWM is the high-water mark of this process image alone.
import { readFileSync } from 'node:fs';

/** @returns {number} */
export function peakRssMiB() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/mu.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) / 1024;
  } catch {
    // not Linux: getrusage's figure below
  }
  return process.resourceUsage().maxRSS / 1024;
}
