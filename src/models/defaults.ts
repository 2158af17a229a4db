// Kept apart from transformers.ts so that naming the default model does not load transformers.js.

/**
 * Default model when nothing is configured: Qwen2.5-0.5B-Instruct (29+ languages, a chat template, 0.5B parameters)
 * with 8-bit ONNX weights (onnx/model_quantized.onnx, ~0.5 GB) published by onnx-community for transformers.js.
 */
export const DEFAULT_MODEL = 'onnx-community/Qwen2.5-0.5B-Instruct';
/** dtype of the default model's weights (transformers.js name: q8 → onnx/model_quantized.onnx). */
export const DEFAULT_MODEL_DTYPE = 'q8';
