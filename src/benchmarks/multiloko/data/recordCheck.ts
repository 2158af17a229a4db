// Plain checks equal to the zod schemas of schema.ts (MultiLoKoQuestionSchema, MultiLoKoFewshotItemSchema) on JSON values,
// for the loaders' hot path: zod stays the one source of the types and of every message (the loaders run it only
// when a check here fails), and test/data/recordCheck.test.ts holds both to the same verdicts and outputs.
import type { MultiLoKoFewshotItem, MultiLoKoQuestion } from './schema.ts';

type Json = Record<string, unknown>;

/** zod's object test: a non-null object that is not an array. */
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** z.number(): finite numbers only. */
const isId = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** z.array(z.string()).min(1) on a present value: a copy, as zod returns, or undefined. */
function targetsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const copy = new Array<string>(value.length);
  for (let i = 0; i < value.length; i++) {
    const target: unknown = value[i];
    if (typeof target !== 'string') return undefined;
    copy[i] = target;
  }
  return copy;
}

const OPTIONAL_STRINGS = ['question', 'text', 'target', 'output_type'] as const;
const ITEM_KEYS = new Set(['id', 'targets', ...OPTIONAL_STRINGS]);
const FEWSHOT_OPTIONAL_STRINGS = ['answer', 'target', 'text', 'output_type'] as const;
const FEWSHOT_KEYS = new Set(['id', 'question', 'targets', ...FEWSHOT_OPTIONAL_STRINGS]);

/** zod's loose-object tail: every other key copied in enumeration order, except `__proto__` (never copied). */
function copyOtherKeys(from: Json, to: Json, declared: ReadonlySet<string>): void {
  for (const key in from) {
    if (declared.has(key) || key === '__proto__') continue;
    to[key] = from[key];
  }
}

/** MultiLoKoQuestionSchema.safeParse(value).data, or undefined where it would fail (same keys, same order). */
export function checkMultiLoKoItem(value: unknown): MultiLoKoQuestion | undefined {
  if (!isObject(value)) return undefined;
  const id = value.id;
  if (!('id' in value) || !isId(id)) return undefined;
  const targets = targetsOf(value.targets);
  if (targets === undefined) return undefined;
  const item: Json = { id, targets };
  // Indexed: before V8 optimises this loop, each for-of step would allocate an iterator result (once per item).
  for (let k = 0; k < OPTIONAL_STRINGS.length; k++) {
    const key = OPTIONAL_STRINGS[k]!;
    if (!(key in value)) continue;
    const field = value[key];
    if (field !== undefined && typeof field !== 'string') return undefined;
    item[key] = field;
  }
  copyOtherKeys(value, item, ITEM_KEYS);
  return item as MultiLoKoQuestion;
}

/** MultiLoKoFewshotItemSchema.safeParse(value).data, or undefined where it would fail (same keys, same order). */
export function checkFewshotItem(value: unknown): MultiLoKoFewshotItem | undefined {
  if (!isObject(value)) return undefined;
  const item: Json = {};
  if ('id' in value) {
    const id = value.id;
    if (id !== undefined && !isId(id)) return undefined;
    item.id = id;
  }
  if (typeof value.question !== 'string' || !('question' in value)) return undefined;
  item.question = value.question;
  if ('targets' in value && value.targets !== undefined) {
    const targets = targetsOf(value.targets);
    if (targets === undefined) return undefined;
    item.targets = targets;
  } else if ('targets' in value) {
    item.targets = undefined;
  }
  for (const key of FEWSHOT_OPTIONAL_STRINGS) {
    if (!(key in value)) continue;
    const field = value[key];
    if (field !== undefined && typeof field !== 'string') return undefined;
    item[key] = field;
  }
  copyOtherKeys(value, item, FEWSHOT_KEYS);
  // The schema's refinement: at least one answer field.
  if (item.targets === undefined && item.answer === undefined && item.target === undefined) return undefined;
  return item as MultiLoKoFewshotItem;
}
