// Which ONNX file transformers.js loads for each weight variant (dtype): shared by the provider and model identity,
// which must not load transformers.js to name a run's weights file.
import { readdirSync } from 'node:fs';

export type ModelDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'q4f16' | 'bnb4';

/** Files transformers.js loads for each dtype (under `onnx/`), in the order a local folder is probed. */
export const DTYPE_FILES: Array<[ModelDtype, string]> = [
  ['fp32', 'model.onnx'],
  ['q8', 'model_quantized.onnx'],
  ['q4', 'model_q4.onnx'],
  ['int8', 'model_int8.onnx'],
  ['uint8', 'model_uint8.onnx'],
  ['fp16', 'model_fp16.onnx'],
  ['q4f16', 'model_q4f16.onnx'],
  ['bnb4', 'model_bnb4.onnx'],
];

/** Files holding a model's weights under `onnxDir`: the graph and its external data (model.onnx_data, model.onnx_data_1, model.onnx.data), sorted. */
export function weightFiles(onnxDir: string, modelFile: string): string[] {
  return readdirSync(onnxDir)
    .filter((name) => name === modelFile || name.startsWith(`${modelFile}_data`) || name.startsWith(`${modelFile}.data`))
    .sort();
}
