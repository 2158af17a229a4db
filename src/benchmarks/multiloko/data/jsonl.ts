// MultiLoKo's JSON Lines files read by the data layer's validating reader (src/data/jsonl.ts) with MultiLoKo's
// schemas, its messages and the ids eval.py's results layout cannot hold.
import { parseJsonlRecords } from '../../../data/jsonl.ts';
import {
  MultiLoKoFewshotItemSchema,
  MultiLoKoQuestionSchema,
  describeFirstIssue,
  type MultiLoKoFewshotItem,
  type MultiLoKoQuestion,
} from './schema.ts';
import { RESERVED_ITEM_IDS } from './reservedIds.ts';

/** Why an item id cannot be written in eval.py's results layout, or undefined. */
function reservedIdProblem(id: string): string | undefined {
  if (!RESERVED_ITEM_IDS.has(id)) return undefined;
  return `id ${JSON.stringify(id)} cannot be written in eval.py's results layout, where a language's ${id === '__proto__' ? 'object cannot hold that key' : `"${id}" key is its mean`}: rename the item`;
}

/** A question file: `<lang>/<split>.jsonl` or one of its translations. */
export function parseMultiLoKoJsonl(bytes: Uint8Array, file: string): MultiLoKoQuestion[] {
  return parseJsonlRecords(bytes, file, { schema: MultiLoKoQuestionSchema, idOf: (item) => item.id, describeIssue: describeFirstIssue, reservedIdProblem });
}

/** `<lang>/knowledge_fewshot.jsonl`. */
export function parseFewshotJsonl(bytes: Uint8Array, file: string): MultiLoKoFewshotItem[] {
  return parseJsonlRecords(bytes, file, { schema: MultiLoKoFewshotItemSchema, idOf: (item) => item.id, describeIssue: describeFirstIssue });
}
