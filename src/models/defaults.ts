// Kept apart from transformers.ts so that naming the default model does not load transformers.js.

/**
 * Default model when nothing is configured: Qwen2.5-0.5B-Instruct (29+ languages, a chat template, 0.5B parameters)
 * with 8-bit ONNX weights (onnx/model_quantized.onnx, ~0.5 GB) published by onnx-community for transformers.js.
 */
export const DEFAULT_MODEL = 'onnx-community/Qwen2.5-0.5B-Instruct';
/** dtype of the default model's weights (transformers.js name: q8 → onnx/model_quantized.onnx). */
export const DEFAULT_MODEL_DTYPE = 'q8';

/** BERTScore's model as the Kalahi reference calls it (bert_score's default layer for it: 12). */
export const DEFAULT_BERTSCORE_MODEL = 'microsoft/deberta-v3-large';
/** BLEURT-20 as a PyTorch/transformers port of the reference checkpoint. */
export const DEFAULT_BLEURT_MODEL = 'lucadiliello/BLEURT-20';
