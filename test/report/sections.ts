// The built-in benchmarks' report sections, as the run's end and `lokal compare` hand them to the report shell (the
// registry's reportSections(), here for MultiLoKo and Kalahi alone: a test file may register benchmarks of its own).
import { kalahi, multiloko, reportSections } from '../../src/benchmarks/index.ts';

export const SECTIONS = await reportSections([multiloko, kalahi]);
