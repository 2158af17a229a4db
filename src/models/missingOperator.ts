// The operator an onnxruntime build lacks, from its load error: an op whose schema it does not know ("Fatal error:
// com.microsoft:MatMulNBits(-1) is not a registered function/op", as onnxruntime before 1.17 says of q4 files) or one
// without a kernel for the execution provider ("Could not find an implementation for MatMulNBits(1) node …").
interface MissingOperator {
  /** '' for the default ONNX domain. */
  domain: string;
  op: string;
}

const UNREGISTERED = /(?:([\w.]+):)?(\w+)\(-?\d+\) is not a registered function\/op/u;
const NO_KERNEL = /Could not find an implementation for (\w+)\(\d+\)/u;

export function missingOperator(message: string): MissingOperator | undefined {
  const unregistered = UNREGISTERED.exec(message);
  if (unregistered) return { domain: unregistered[1] ?? '', op: unregistered[2]! };
  const noKernel = NO_KERNEL.exec(message);
  return noKernel ? { domain: '', op: noKernel[1]! } : undefined;
}

/** Why a weight format needs its operator, for the error line (MatMulNBits: q4 and q4f16 files). */
export const OPERATOR_NOTES: Record<string, string> = {
  MatMulNBits: ' (4-bit weights; onnxruntime added it in 1.17)',
};
