// Large allocations on transparent huge pages in the workers that hold a local model. glibc's `glibc.malloc.hugetlb=1`
// tunable (glibc 2.35 and later; read once, when a process starts) madvises every large block malloc maps for THP, so
// onnxruntime's big buffers (the head packed again at load, each pass's activations and logits) take 512 times fewer
// page faults. Only where memory lies changes, not what is computed (docs/models.md has the figures).

/** The tunable, as GLIBC_TUNABLES lists it. */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

/**
 * `current` (GLIBC_TUNABLES' colon-separated list) with large mallocs on transparent huge pages added, or undefined
 * when it already sets glibc.malloc.hugetlb: the user's own choice stands.
 */
export function withHugePages(current: string | undefined): string | undefined {
  if (current === undefined || current.trim() === '') return HUGE_PAGES_TUNABLE;
  if (current.split(':').some((tunable) => tunable.trim().startsWith('glibc.malloc.hugetlb='))) return undefined;
  return `${current}:${HUGE_PAGES_TUNABLE}`;
}

/** The variables a worker process is started with for it: GLIBC_TUNABLES on Linux, nothing elsewhere or when already chosen. */
export function hugePagesEnv(platform: string = process.platform, env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  if (platform !== 'linux') return {};
  const value = withHugePages(env.GLIBC_TUNABLES);
  return value === undefined ? {} : { GLIBC_TUNABLES: value };
}
