"""The Python onnxruntime peer of `npm run bench -- inrun` (BENCH_ORT_PYTHON; bench/ortPeer.ts starts it; not part of the package).

Greedy generation written directly on onnxruntime's Python API, as a user would for throughput, on the very graph file
the `transformers:` provider runs (its saved optimised graph, loaded with graph optimisation off as the provider loads
it): the prefix all prompts share run once, then batches of rows continuing it (right-padded prompt pass, masked),
each decoding until every row of the batch is done (finished rows keep their slot); the session's present key/value
outputs are fed back as the next step's past, numpy arrays as session.run returns them. The graph's logit-positions
input (src/models/logitPositions.ts) gets each row's last position, as the provider feeds it. Stop strings are checked
on the decoded new text each step (byte-level BPE decoding of tokenizer.json, special tokens skipped).

The bench gives the token ids of the prompts (tokenised by the provider's tokenizer) and gets the ids generated, so
both sides run the same tokens and the answers are compared after one decoding.

Usage: python bench/ort_peer.py <job.json> <result.json>
job: {"graph", "tokenizer", "threads" (0: onnxruntime's default), "batchSize", "prompts": [[int]], "maxNewTokens": [int],
      "stops": [[str]], "eos": [int], "pad": int, "logitPositions": str | null, "profile": str | null}
result: see OrtPeerResultSchema in bench/ortPeer.ts.
"""

import time

STARTED = time.perf_counter()

import json  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - STARTED


def stand_in_bytes() -> dict:
    """GPT-2's printable stand-in character -> byte (bytes_to_unicode in OpenAI's gpt-2 encoder.py, inverted)."""
    table = {}
    extra = 256
    for byte in range(256):
        printable = 33 <= byte <= 126 or 161 <= byte <= 172 or 174 <= byte <= 255
        table[chr(byte) if printable else chr(extra)] = byte
        if not printable:
            extra += 1
    return table


class ByteLevelText:
    """Token ids -> text for a byte-level BPE tokenizer.json (GPT-2, Qwen2): special added tokens skipped, other added tokens literal."""

    def __init__(self, tokenizer_file: str):
        with open(tokenizer_file, encoding="utf-8") as f:
            data = json.load(f)
        model = data.get("model") or {}
        if model.get("type") != "BPE" or (data.get("decoder") or {}).get("type") != "ByteLevel":
            raise SystemExit(f"ort_peer: {tokenizer_file}: a byte-level BPE tokenizer expected (model {model.get('type')}, decoder {(data.get('decoder') or {}).get('type')})")
        standins = stand_in_bytes()
        self.bytes = {}
        for token, index in model["vocab"].items():
            # a character outside the stand-ins (not byte-level after all) keeps its own UTF-8 bytes
            self.bytes[index] = b"".join(bytes([standins[c]]) if c in standins else c.encode("utf-8") for c in token)
        for added in data.get("added_tokens") or []:
            self.bytes[added["id"]] = b"" if added.get("special") else added["content"].encode("utf-8")

    def text(self, ids) -> str:
        return b"".join(self.bytes.get(i, b"") for i in ids).decode("utf-8", errors="replace")


def common_prefix_length(sequences: list) -> int:
    if not sequences:
        return 0
    n = min(len(s) for s in sequences)
    first = sequences[0]
    for i in range(n):
        if any(s[i] != first[i] for s in sequences):
            return i
    return n


class Timed:
    """session.run with the time spent inside it summed (the rest of the loop is numpy, argmax and decoding)."""

    def __init__(self, session):
        self.session = session
        self.seconds = 0.0
        self.calls = 0

    def run(self, fetches, feeds):
        t = time.perf_counter()
        out = self.session.run(fetches, feeds)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        return out


def generate(session, job: dict, text: ByteLevelText) -> dict:
    timed = Timed(session)
    inputs = {i.name: i for i in session.get_inputs()}
    past_names = [n for n in inputs if n.startswith("past_key_values.")]
    present_names = [n.replace("past_key_values", "present", 1) for n in past_names]
    layout = {}
    for name in past_names:
        shape = inputs[name].shape
        if len(shape) != 4 or not isinstance(shape[1], int) or not isinstance(shape[3], int):
            raise SystemExit(f"ort_peer: {job['graph']}: input {name} has shape {shape}, expected [batch, heads, past, dim] with fixed heads and dim")
        layout[name] = (shape[1], shape[3])
    # the provider adds it to graphs whose output projection allows it; others give every position's logits
    select = job.get("logitPositions") if job.get("logitPositions") in inputs else None
    prompts = job["prompts"]
    eos = set(job["eos"])
    pad = int(job["pad"])
    batch_size = int(job["batchSize"])
    generated_all = [None] * len(prompts)
    decode_seconds = 0.0
    steps = 0
    started = time.perf_counter()
    cpu = time.process_time()
    # the prefix all prompts share, minus one token so every prompt has one of its own
    shared = max(0, min([common_prefix_length(prompts)] + [len(p) - 1 for p in prompts]))
    prefix = None
    if shared > 0:
        feeds = {
            "input_ids": np.array([prompts[0][:shared]], dtype=np.int64),
            "attention_mask": np.ones((1, shared), dtype=np.int64),
            "position_ids": np.arange(shared, dtype=np.int64)[None, :],
        }
        for name, (heads, dim) in layout.items():
            feeds[name] = np.zeros((1, heads, 0, dim), dtype=np.float32)
        if select is not None:
            feeds[select] = np.array([[shared - 1]], dtype=np.int64)
        prefix = dict(zip(past_names, timed.run(present_names, feeds)))
    for at in range(0, len(prompts), batch_size):
        rows = list(range(at, min(at + batch_size, len(prompts))))
        b = len(rows)
        own = [prompts[i][shared:] for i in rows]
        width = max(len(o) for o in own)
        total = shared + width
        ids = np.full((b, width), pad, dtype=np.int64)
        positions = np.zeros((b, width), dtype=np.int64)
        mask = np.zeros((b, total), dtype=np.int64)
        for r, o in enumerate(own):
            ids[r, : len(o)] = o
            positions[r] = shared + np.minimum(np.arange(width), len(o) - 1)
            mask[r, : shared + len(o)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "position_ids": positions}
        for name, (heads, dim) in layout.items():
            # the prefix's cache repeated for every row
            feeds[name] = np.repeat(prefix[name], b, axis=0) if prefix is not None else np.zeros((b, heads, 0, dim), dtype=np.float32)
        if select is not None:
            feeds[select] = np.array([[r * width + len(o) - 1] for r, o in enumerate(own)], dtype=np.int64)
        out = timed.run(["logits"] + present_names, feeds)
        logits = out[0]
        # [b, 1, vocab] with positions selected, else [b, width, vocab]: each row's last position
        last = logits[:, 0, :] if select is not None else logits[np.arange(b), [len(o) - 1 for o in own], :]
        generated = [[] for _ in rows]
        done = [False] * b
        decoding = time.perf_counter()

        def pick(r: int, row_logits) -> None:
            token = int(np.argmax(row_logits))  # the first of equal maxima, as transformers.js's argmax
            generated[r].append(token)
            i = rows[r]
            stops = job["stops"][i]
            if len(generated[r]) >= job["maxNewTokens"][i] or token in eos or (stops and any(s in text.text(generated[r]) for s in stops)):
                done[r] = True

        for r in range(b):
            pick(r, last[r])
        step_select = np.arange(b, dtype=np.int64)[:, None]
        while not all(done):
            mask = np.concatenate([mask, np.ones((b, 1), dtype=np.int64)], axis=1)
            feeds = {
                "input_ids": np.array([[g[-1]] for g in generated], dtype=np.int64),
                "attention_mask": mask,
                "position_ids": np.array([[shared + len(o) + len(g) - 1] for o, g in zip(own, generated)], dtype=np.int64),
            }
            for name, value in zip(past_names, out[1:]):
                feeds[name] = value
            if select is not None:
                feeds[select] = step_select
            out = timed.run(["logits"] + present_names, feeds)
            steps += 1
            logits = out[0]
            for r in range(b):
                if not done[r]:
                    pick(r, logits[r, -1])
        decode_seconds += time.perf_counter() - decoding
        for r, i in enumerate(rows):
            generated_all[i] = generated[r]
    return {
        "seconds": time.perf_counter() - started,
        "cpuSeconds": time.process_time() - cpu,
        "runSeconds": timed.seconds,
        "runCalls": timed.calls,
        "decodeSeconds": decode_seconds,
        "decodeSteps": steps,
        "sharedPrefix": shared,
        "generated": generated_all,
    }


def main() -> None:
    job_file, result_file = sys.argv[1], sys.argv[2]
    with open(job_file, encoding="utf-8") as f:
        job = json.load(f)
    options = ort.SessionOptions()
    # the provider loads its saved optimised graph with graph optimisation off (src/models/transformers.ts)
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    threads = int(job.get("threads") or 0)
    if threads > 0:
        options.intra_op_num_threads = threads
    if job.get("profile"):
        options.enable_profiling = True
        options.profile_file_prefix = job["profile"]
    loading = time.perf_counter()
    session = ort.InferenceSession(job["graph"], sess_options=options, providers=["CPUExecutionProvider"])
    load_seconds = time.perf_counter() - loading
    text = ByteLevelText(job["tokenizer"])
    result = generate(session, job, text)
    profile = session.end_profiling() if job.get("profile") else None
    result.update(
        {
            "importSeconds": IMPORT_SECONDS,
            "loadSeconds": load_seconds,
            "threads": threads,
            "profile": profile,
            "versions": {"python": sys.version.split()[0], "onnxruntime": ort.__version__, "numpy": np.__version__},
        }
    )
    with open(result_file, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
