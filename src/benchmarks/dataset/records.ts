// What a dataset item test keeps in its meta, and what a group adds up to.
import type { GroupInfo } from '../benchmark.ts';
import type { RecordedInput } from '../../models/recordedInput.ts';
import type { DatasetMetric } from './options.ts';
import type { ErrorCategory } from '../../metrics/errorCategory.ts';

export interface DatasetRecord {
  id: string | number;
  group: string;
  /** The reply as the model gave it ('' when a replay file had none). */
  answer: string;
  /** The text of the prompt's first slot (`{question}`), as the dataset gives it; absent without slots. */
  question?: string;
  /** The accepted answers as the dataset gives them. */
  accepted?: string[];
  /** Answer and targets as scored (normalised). */
  prediction: string;
  targets: string[];
  scores: Partial<Record<DatasetMetric, number>>;
  /** Exact match against any target (the item's verdict, whatever metrics are named). */
  correct: boolean;
  /** MultiLoKo's error category of the scored strings; absent in records of older runs. */
  error?: ErrorCategory;
  /** A replay file without a row for the item (scored as ''). */
  missing: boolean;
  cached: boolean;
  /** What the model was fed (LOKAL_RECORD_PROMPTS), null when nothing was sent (replay) or recording is off. */
  modelInput: RecordedInput | null;
}

export interface DatasetAggregate extends GroupInfo {
  /** Items with a record, of which `missing` had no reply; items whose test failed without one, skipped ones. */
  scored: number;
  missing: number;
  failed: number;
  skipped: number;
  /** Mean of each named metric over the scored items; null when none was scored. */
  means: Partial<Record<DatasetMetric, number | null>>;
}
