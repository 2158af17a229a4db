"""The Hugging Face peer of `npm run bench -- generation` (bench/hfPeer.ts starts it; not part of the package).

Runs greedy generation with Hugging Face transformers + PyTorch on CPU on the weights of our ONNX file, driven the way
lm-evaluation-harness's `hf` backend drives `generate_until`: requests sorted longest first, left-padded batches,
greedy `model.generate` with a per-row stop-string criterion, the continuation decoded without special tokens and cut
at the first `until` string (the request's stop strings plus the tokenizer's end-of-sequence text), a max_gen_toks
budget. The model's own generation_config.json (repetition penalty) applies, as from_pretrained loads it there.

Loading: without a checkpoint, the ONNX file's initialisers (read with the `onnx` package, external data too) are
mapped to Qwen2ForCausalLM's parameters (our MatMul weights are stored [in, out]; torch's Linear keeps [out, in]) and
saved with save_pretrained into the checkpoint folder; later processes load that folder with from_pretrained, as
lm-evaluation-harness loads a model.

Usage: python bench/hf_peer.py <job.json> <result.json>
job: {"dir", "checkpoint", "threads", "batchSize", "ways": ["oneAtATime" | "batched", ...],
      "workloads": [{"mode", "requests": [{"prompt" | "messages", "stop"?, "maxNewTokens"?}]}],
      "logits"?: {"ids": [int], "out": path}}  (logits: float32 [len(ids), vocab], row-major, written raw)
result: see PeerResult in bench/hfPeer.ts.
"""

import time

STARTED = time.perf_counter()

import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, GenerationConfig, StoppingCriteria, StoppingCriteriaList  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - STARTED


def peak_rss_mib() -> float:
    # VmHWM: this process image's own peak. ru_maxrss survives exec, so a child of a large parent reports the
    # parent's peak when its own is lower (bench/peakRss.mjs).
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def onnx_state_dict(onnx_file: str, config) -> dict:
    """Qwen2ForCausalLM's state dict from our ONNX file's initialisers (names as tinyWeightNames in test/support/tinyModel.ts)."""
    import onnx
    from onnx import numpy_helper

    proto = onnx.load(onnx_file, load_external_data=True)
    arrays = {init.name: numpy_helper.to_array(init) for init in proto.graph.initializer}
    del proto
    # MatMul right-hand sides, stored [in, out]: torch.nn.Linear holds [out, in]
    transposed = ("q_proj.weight", "k_proj.weight", "v_proj.weight", "o_proj.weight", "gate_proj.weight", "up_proj.weight", "down_proj.weight")
    names = ["model.embed_tokens.weight", "model.norm.weight"]
    if not config.tie_word_embeddings:
        names.append("lm_head.weight")  # stored [hidden, vocab]
        transposed += ("lm_head.weight",)
    for i in range(config.num_hidden_layers):
        p = f"model.layers.{i}"
        names += [f"{p}.input_layernorm.weight", f"{p}.post_attention_layernorm.weight"]
        names += [f"{p}.self_attn.{x}_proj.weight" for x in ("q", "k", "v", "o")]
        names += [f"{p}.mlp.{x}_proj.weight" for x in ("gate", "up", "down")]
        names += [f"{p}.self_attn.{x}_proj.bias" for x in ("q", "k", "v")]  # Qwen2 has q/k/v biases
    missing = [n for n in names if n not in arrays]
    if missing:
        raise SystemExit(f"hf_peer: {onnx_file} lacks initialisers {missing[:5]} ({len(missing)} missing): not a make:tiny-model Qwen2-shaped graph")
    state = {}
    for name in names:
        array = arrays.pop(name)
        state[name] = torch.from_numpy(array.T.copy() if name.endswith(transposed) else array)
    return state


def map_from_onnx(model_dir: str):
    """Builds Qwen2ForCausalLM from config.json and our ONNX file's weights, checking every parameter is assigned."""
    try:
        from transformers.initialization import no_init_weights  # transformers 5
    except ImportError:
        from transformers.modeling_utils import no_init_weights  # transformers 4
    config = AutoConfig.from_pretrained(model_dir)
    if config.model_type != "qwen2":
        raise SystemExit(f"hf_peer: {model_dir}/config.json: model_type {config.model_type!r}, expected qwen2")
    state = onnx_state_dict(os.path.join(model_dir, "onnx", "model.onnx"), config)
    with no_init_weights():
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    expected = {k for k in model.state_dict().keys()}
    result = model.load_state_dict(state, strict=False)
    unassigned = set(result.missing_keys) - ({"lm_head.weight"} if config.tie_word_embeddings else set())
    if unassigned or result.unexpected_keys:
        raise SystemExit(f"hf_peer: weight mapping incomplete: unassigned {sorted(unassigned)[:5]}, unexpected {result.unexpected_keys[:5]} (of {len(expected)})")
    if config.tie_word_embeddings:
        model.lm_head.weight = model.model.embed_tokens.weight
    model.generation_config = GenerationConfig.from_pretrained(model_dir)
    return model.eval()


class StopStrings(StoppingCriteria):
    """Per row: stop once the text generated after the prompt holds any `until` string (cut again after decoding)."""

    def __init__(self, tokenizer, until: list, prompt_length: int):
        self.tokenizer = tokenizer
        self.until = [u for u in until if u]
        self.prompt_length = prompt_length

    def __call__(self, input_ids, scores, **kwargs):
        texts = self.tokenizer.batch_decode(input_ids[:, self.prompt_length :])
        return torch.tensor([any(u in t for u in self.until) for t in texts], dtype=torch.bool, device=input_ids.device)


def render(tokenizer, request: dict) -> str:
    if "messages" in request and request["messages"] is not None:
        return tokenizer.apply_chat_template(request["messages"], tokenize=False, add_generation_prompt=True)
    return request["prompt"]


def generate_until(model, tokenizer, requests: list, batch_size: int, eos_text: str):
    """lm-evaluation-harness's generate_until flow: longest context first, left-padded batches, cut at `until` after decoding."""
    contexts = [render(tokenizer, r) for r in requests]
    lengths = [len(tokenizer(c, add_special_tokens=False).input_ids) for c in contexts]
    # requests with the same generation arguments batch together, longest first
    groups = {}
    for i, r in enumerate(requests):
        groups.setdefault((tuple(r.get("stop") or []), int(r.get("maxNewTokens") or 64)), []).append(i)
    texts = [None] * len(requests)
    generated = 0
    largest = 0
    for (stops, max_new), members in groups.items():
        order = sorted(members, key=lambda i: -lengths[i])
        until = list(stops) + [eos_text]
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            largest = max(largest, len(rows))
            batch = tokenizer([contexts[i] for i in rows], return_tensors="pt", padding="longest", add_special_tokens=False)
            width = batch.input_ids.shape[1]
            with torch.inference_mode():
                out = model.generate(
                    input_ids=batch.input_ids,
                    attention_mask=batch.attention_mask,
                    max_length=width + max_new,
                    stopping_criteria=StoppingCriteriaList([StopStrings(tokenizer, until, width)]),
                    pad_token_id=tokenizer.pad_token_id,
                    use_cache=True,
                    do_sample=False,
                    temperature=None,
                    top_p=None,
                    top_k=None,
                )
            for row, i in enumerate(rows):
                continuation = out[row, width:].tolist()
                generated += sum(1 for t in continuation if t != tokenizer.pad_token_id)
                text = tokenizer.decode(continuation, skip_special_tokens=True)
                for term in until:
                    if term:
                        text = text.split(term)[0]
                texts[i] = text
    return texts, sum(lengths), generated, largest


def main() -> None:
    job_file, result_file = sys.argv[1], sys.argv[2]
    with open(job_file, encoding="utf-8") as f:
        job = json.load(f)
    threads = int(job.get("threads") or os.cpu_count() or 1)
    torch.set_num_threads(threads)
    checkpoint = job["checkpoint"]
    started = time.perf_counter()
    save_seconds = 0.0
    if os.path.exists(os.path.join(checkpoint, "config.json")):
        kind = "checkpoint"
        model = AutoModelForCausalLM.from_pretrained(checkpoint, dtype=torch.float32).eval()
        load_seconds = time.perf_counter() - started
    else:
        kind = "mapped"
        model = map_from_onnx(job["dir"])
        load_seconds = time.perf_counter() - started
        saving = time.perf_counter()
        model.save_pretrained(checkpoint)
        save_seconds = time.perf_counter() - saving
    tokenizing = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(job["dir"], padding_side="left")
    tokenizer_seconds = time.perf_counter() - tokenizing
    load_rss = peak_rss_mib()
    logits_shape = None
    if job.get("logits"):
        ids = torch.tensor([job["logits"]["ids"]], dtype=torch.long)
        with torch.inference_mode():
            logits = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits[0].to(torch.float32).contiguous()
        logits.numpy().tofile(job["logits"]["out"])
        logits_shape = list(logits.shape)
    eos_text = tokenizer.eos_token or ""
    modes = []
    for way in job["ways"]:
        batch_size = 1 if way == "oneAtATime" else int(job["batchSize"])
        for workload in job["workloads"]:
            cpu = time.process_time()
            t = time.perf_counter()
            texts, prompt_tokens, generated, largest = generate_until(model, tokenizer, workload["requests"], batch_size, eos_text)
            modes.append(
                {
                    "mode": workload["mode"],
                    "way": way,
                    "seconds": time.perf_counter() - t,
                    "cpuSeconds": time.process_time() - cpu,
                    "texts": texts,
                    "promptTokens": prompt_tokens,
                    "generatedTokens": generated,
                    "largestBatch": largest,
                }
            )
    result = {
        "importSeconds": IMPORT_SECONDS,
        "loadKind": kind,
        "loadSeconds": load_seconds,
        "saveSeconds": save_seconds,
        "tokenizerSeconds": tokenizer_seconds,
        "loadRssMiB": load_rss,
        "logitsShape": logits_shape,
        "modes": modes,
        "peakRssMiB": peak_rss_mib(),
        "threads": torch.get_num_threads(),
        "versions": {"python": sys.version.split()[0], "torch": torch.__version__, "transformers": transformers.__version__},
    }
    with open(result_file, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
