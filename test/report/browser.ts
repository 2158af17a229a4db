// Headless Chromium for the report tests and the README screenshot: Debian's chromium driven by playwright-core,
// both optional (the tests that need them skip with the reason when either is absent).
import { existsSync } from 'node:fs';

/** Where Debian (and Ubuntu) put the chromium binary; LOKAL_TEST_CHROMIUM names another one (and only that one). */
const CANDIDATES = process.env.LOKAL_TEST_CHROMIUM ? [process.env.LOKAL_TEST_CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

// A variable specifier keeps tsc from requiring the package: playwright-core is an optional test dependency.
const PLAYWRIGHT = 'playwright-core';

/** playwright-core's chromium launcher and the browser binary, or why they cannot be had. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function findChromium(): Promise<{ chromium: any; executablePath: string } | { reason: string }> {
  const executablePath = CANDIDATES.find((p) => existsSync(p));
  if (!executablePath) return { reason: `no chromium binary (looked for ${CANDIDATES.join(', ')}; .ci/run installs Debian's with apt-get when it can)` };
  try {
    const module = await import(PLAYWRIGHT);
    return { chromium: module.chromium ?? module.default.chromium, executablePath };
  } catch (error) {
    return { reason: `playwright-core is not installed (${(error as Error).message.split('\n')[0]})` };
  }
}

/** Chromium flags for a root user in a container (CI runs as root) without GPU or shared memory to spare. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
