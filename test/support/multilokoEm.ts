// MultiLoKo's exact match worked out from its definition (docs/metrics.md#normalisation, #exact-match, eval.py's normalize_answer), apart from
// src/: lower-case, delete the listed punctuation, replace standalone a/an/the by a space, split on whitespace and join.
// Whitespace here is JavaScript's \s, which equals Python's for the strings tests generate.

const DELETED =
  /[\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E\u00A1\u00AB\u00BB\u00BF\u2013\u2014\u2018\u2019\u201B-\u201F\u2026\u2027\u3001-\u3003\u300A-\u3011\u3014-\u301F\u3030\u303E\u303F\uFE4F\uFF01-\uFF0D\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF64]/gu;
const ARTICLE = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

export function normaliseByDefinition(text: string): string {
  return text.toLowerCase().replace(DELETED, '').replace(ARTICLE, ' ').split(/\s+/u).filter((word) => word !== '').join(' ');
}

/** 1 when the normalised prediction equals a normalised target (a missing prediction is scored as ''). */
export function exactMatchByDefinition(prediction: string | undefined, targets: readonly string[]): 0 | 1 {
  const answer = normaliseByDefinition(prediction ?? '');
  return targets.some((target) => normaliseByDefinition(target) === answer) ? 1 : 0;
}
