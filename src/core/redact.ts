// Redaction for runs whose outputs leave the machine (MultiLoKo's authors encrypt their data to keep it out of web
// crawls): with it on, test names, annotations, failure messages, results files, the report and the step summary carry
// ids, hashes and figures, never question, prompt, target or answer text.
import { readRegularTextSync } from '../data/filesSync.ts';
import { sha256 } from './sha256.ts';

export const REDACT_SETTINGS = ['auto', 'on', 'off'] as const;
type RedactSetting = (typeof REDACT_SETTINGS)[number];

interface Redaction {
  on: boolean;
  /** Why, in words: shown once in the run's summary. */
  reason: string;
}

/** Largest event payload read: GitHub caps a webhook payload at 25 MB. */
const MAX_EVENT_BYTES = 32 * 2 ** 20;

/** The repository's visibility as the GitHub Actions event payload gives it; undefined when it does not say (or is a FIFO). */
function githubVisibility(env: Readonly<Record<string, string | undefined>>): 'public' | 'private' | undefined {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  try {
    const event = JSON.parse(readRegularTextSync(env.GITHUB_EVENT_PATH, 'GitHub event payload', MAX_EVENT_BYTES)) as { repository?: { private?: unknown; visibility?: unknown } };
    const repository = event.repository;
    if (repository?.visibility === 'public' || repository?.private === false) return 'public';
    if (repository?.visibility === 'private' || repository?.visibility === 'internal' || repository?.private === true) return 'private';
  } catch {
    // An unreadable payload (a FIFO is refused, never waited on) says nothing: the visibility stays unknown.
  }
  return undefined;
}

/** `CI` is set to something other than empty, `0` or `false`: output goes to a log others may read. */
export function inCI(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
}

/**
 * `on`/`off` as set; `auto`: on in GitHub Actions when the event payload says the repository is public, off when it
 * says private, and on wherever `CI` is set and the visibility is unknown; off on a developer's machine.
 */
export function resolveRedaction(setting: RedactSetting | undefined, env: Readonly<Record<string, string | undefined>> = process.env): Redaction {
  if (setting === 'on') return { on: true, reason: 'LOKAL_REDACT=on' };
  if (setting === 'off') return { on: false, reason: 'LOKAL_REDACT=off' };
  const visibility = env.GITHUB_ACTIONS === 'true' ? githubVisibility(env) : undefined;
  if (visibility === 'public') return { on: true, reason: 'LOKAL_REDACT=auto: a public GitHub repository' };
  if (visibility === 'private') return { on: false, reason: 'LOKAL_REDACT=auto: a private GitHub repository' };
  if (inCI(env)) return { on: true, reason: "LOKAL_REDACT=auto: CI is set and the repository's visibility is unknown" };
  return { on: false, reason: 'LOKAL_REDACT=auto: not in CI' };
}

/** A text as it may be published: `sha256:` and the first 12 hex digits of its SHA-256 (UTF-8). */
export function redactedText(text: string): string {
  return `sha256:${sha256(text).slice(0, 12)}`;
}

const REDACTED = /^sha256:[0-9a-f]{12}$/u;

/** A text from elsewhere (a baseline) as it may be published: hashed, unless it is already a hash (a redacted run's). */
export function redactedOnce(text: string): string {
  return REDACTED.test(text) ? text : redactedText(text);
}
