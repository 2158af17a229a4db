// Preloaded into a child run (NODE_OPTIONS=--import): appends a line to $ORT_SESSION_COUNT_LOG for every onnxruntime
// session created, in whichever process or thread creates it — a count of model loads that does not read the run's log.
import { appendFileSync } from 'node:fs';
import { InferenceSession } from 'onnxruntime-node';

const log = process.env.ORT_SESSION_COUNT_LOG;
if (log) {
  const create = InferenceSession.create;
  InferenceSession.create = function (...args) {
    appendFileSync(log, `${process.pid} ${typeof args[0] === 'string' ? args[0] : 'bytes'}\n`);
    return create.apply(this, args);
  };
}
