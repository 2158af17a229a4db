#!/usr/bin/env python3
"""A second, independent implementation of MultiLoKo eval.py's per-example metrics, written in Python from
docs/metrics.md (#python-conventions, #chrf, #sentence-bleu, #multiloko), for two jobs: the differential test of the TypeScript metrics (same CPython `re`, `str.lower`,
`math.log/exp` and `difflib` the reference uses) and the baseline of `npm run bench`.

sacrebleu and editdistance are not installable here (no PyPI), so their algorithms are re-implemented from the spec;
difflib.SequenceMatcher and collections.Counter are the very code eval.py calls.

Input (stdin): JSON lines {"prediction": str, "targets": [str, ...]}. Output (stdout): one JSON object
{"seconds": float, "items": [{"prediction", "targets", "em", "f1", "bleu", "chrf", "edit_distance",
"edit_similarity"}, ...]} where prediction/targets are normalised.
"""
import json
import math
import os
import re
import sys
import time
from collections import Counter
from difflib import SequenceMatcher

PUNCT = set(
    [chr(c) for c in range(0x21, 0x30)] + [chr(c) for c in range(0x3A, 0x41)]
    + [chr(c) for c in range(0x5B, 0x61)] + [chr(c) for c in range(0x7B, 0x7F)]
    + ["\u00a1", "\u00ab", "\u00bb", "\u00bf", "\u2013", "\u2014", "\u2018", "\u2019"]
    + [chr(c) for c in range(0x201B, 0x2020)] + ["\u2026", "\u2027"]
    + [chr(c) for c in range(0x3001, 0x3004)] + [chr(c) for c in range(0x300A, 0x3012)]
    + [chr(c) for c in range(0x3014, 0x3020)] + ["\u3030", "\u303e", "\u303f", "\ufe4f"]
    + [chr(c) for c in range(0xFF01, 0xFF0E)] + ["\uff0f"] + [chr(c) for c in range(0xFF1A, 0xFF21)]
    + [chr(c) for c in range(0xFF3B, 0xFF41)] + [chr(c) for c in range(0xFF5B, 0xFF65)]
)
assert len(PUNCT) == 111, len(PUNCT)
ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in PUNCT)
    text = ARTICLES.sub(" ", text)
    return " ".join(text.split())


def em(pred, targets):
    return max(float(pred == t) for t in targets)


def f1(pred, targets):
    def one(p, g):
        same = sum((Counter(p) & Counter(g)).values())
        if same == 0:
            return 0
        precision = 1.0 * same / len(p)
        recall = 1.0 * same / len(g)
        return (2 * precision * recall) / (precision + recall)
    return max(one(pred.split(), t.split()) for t in targets)


# ---- chrF (docs/metrics.md#chrf), character orders 1..6, beta 2 ----
def char_ngrams(s, n):
    return Counter(s[i:i + n] for i in range(len(s) - n + 1))


def chrf_one(hyp, ref):
    hyp = "".join(hyp.split())
    ref = "".join(ref.split())
    p_sum = r_sum = 0.0
    count = 0
    for n in range(1, 7):
        h = char_ngrams(hyp, n)
        r = char_ngrams(ref, n)
        n_ref = sum(r.values())
        n_hyp = sum(h.values()) if n_ref > 0 else 0
        n_match = sum(min(c, r[g]) for g, c in h.items())
        if n_hyp > 0 and n_ref > 0:
            p_sum += n_match / n_hyp
            r_sum += n_match / n_ref
            count += 1
    if count == 0:
        return 0.0
    p = p_sum / count
    r = r_sum / count
    if p + r == 0:
        return 0.0
    return 100 * (((5 * p) * r) / ((4 * p) + r))


def chrf(hyp, refs):
    best = -1.0
    for ref in refs:
        s = chrf_one(hyp, ref)
        if s > best:
            best = s
    return best


# ---- sentence BLEU (docs/metrics.md#sentence-bleu): 13a, exp smoothing, effective order ----
R_A = re.compile(r"([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])")
R_B = re.compile(r"([^0-9])([\.,])")
R_C = re.compile(r"([\.,])([^0-9])")
R_D = re.compile(r"([0-9])(-)")


def tok13a(line):
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = " " + line + " "
    line = R_A.sub(r" \1 ", line)
    line = R_B.sub(r"\1 \2 ", line)
    line = R_C.sub(r" \1 \2", line)
    line = R_D.sub(r"\1 \2 ", line)
    return line.split()


def ngrams(tokens, n):
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu(hyp, refs):
    h = tok13a(hyp.rstrip())
    rs = [tok13a(r.rstrip()) for r in refs]
    c = len(h)
    merged = {}
    for r in rs:
        for n in range(1, 5):
            for g, k in ngrams(r, n).items():
                if merged.get(g, 0) < k:
                    merged[g] = k
    r_len = None
    best_diff = None
    for r in rs:
        d = abs(len(r) - c)
        if best_diff is None or d < best_diff or (d == best_diff and len(r) < r_len):
            best_diff, r_len = d, len(r)
    correct, total = [], []
    for n in range(1, 5):
        hc = ngrams(h, n)
        correct.append(sum(min(k, merged.get(g, 0)) for g, k in hc.items()))
        total.append(max(0, c - n + 1))
    if c < r_len:
        bp = 0.0 if c == 0 else math.exp(1 - r_len / c)
    else:
        bp = 1.0
    if sum(correct) == 0:
        return 0.0
    f = 1.0
    logs = []
    for n in range(4):
        if total[n] == 0:
            break
        if correct[n] > 0:
            p = 100.0 * correct[n] / total[n]
        else:
            f *= 2
            p = 100.0 / (f * total[n])
        logs.append(math.log(p) if p > 0 else -9999999999)
    return bp * math.exp(sum(logs) / len(logs))


def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


# When the reference libraries are installed (sacrebleu 2.6.0; Levenshtein, a C code-point Levenshtein like
# editdistance), use them: then BLEU, chrF and edit distance are the reference's own code. LOKAL_PORT_PURE=1 forces
# the pure-Python algorithms above.
ENGINE = "python-port"
if not os.environ.get("LOKAL_PORT_PURE"):
    try:
        import sacrebleu
        import Levenshtein

        bleu = lambda hyp, refs: sacrebleu.sentence_bleu(hyp, refs).score  # noqa: E731
        chrf = lambda hyp, refs: sacrebleu.sentence_chrf(hyp, refs).score  # noqa: E731
        levenshtein = Levenshtein.distance
        ENGINE = f"sacrebleu {sacrebleu.__version__} + Levenshtein"
    except ImportError:
        pass


def score(prediction, targets):
    pred = normalize(prediction)
    targets = [normalize(t) for t in targets]
    return {
        "prediction": pred,
        "targets": targets,
        "em": em(pred, targets),
        "f1": f1(pred, targets),
        "bleu": bleu(pred, targets),
        "chrf": chrf(pred, targets),
        "edit_distance": float(min(levenshtein(pred, t) for t in targets)),
        "edit_similarity": max(SequenceMatcher(None, pred, t).ratio() for t in targets),
    }


def run_like_eval_py(dataset, subset, predictions, output):
    """eval.py's whole flow (docs/metrics.md#means-and-group-metrics): read every language's `<subset>.jsonl` and translated files, the
    predictions JSONL, normalise, score, average per language in prediction order, aggregate, write the JSON."""
    references = {}
    for lang in sorted(os.listdir(dataset)):
        folder = os.path.join(dataset, lang)
        if "debug" in lang or not os.path.isdir(folder):
            continue
        files = [(os.path.join(folder, f"{subset}.jsonl"), lang)]
        for name in sorted(os.listdir(folder)):
            if name.startswith(f"{subset}_translated") and name.endswith(".jsonl"):
                files.append((os.path.join(folder, name), name[: -len(".jsonl")].replace(subset, lang)))
        for path, key in files:
            if os.path.exists(path):
                with open(path) as f:
                    references[key] = {r["id"]: r["targets"] for r in map(json.loads, f)}
    answers = {}
    with open(predictions) as f:
        for line in f:
            row = json.loads(line)
            answers.setdefault(row["language"], {})[row["id"]] = row["prediction"]
    results = {}
    names = ["em", "f1", "bleu", "chrf", "edit_distance", "edit_similarity"]
    for lang, rows in answers.items():
        results[lang] = {}
        for id_, prediction in rows.items():
            record = score(prediction, references[lang][id_])
            results[lang][id_] = {k: record[k] for k in names + ["targets", "prediction"]}
        for m in names:
            total = 0
            for id_ in rows:
                total += results[lang][id_][m]
            results[lang][m] = total / len(rows)
    langs = [k for k in results]
    group = {}
    for m in names:
        values = [results[k][m] for k in langs]
        group[f"average_{m}"] = sum(values) / len(values)
        group[f"max_{m}"] = max(values)
        group[f"min_{m}"] = min(values)
        group[f"gap_{m}"] = group[f"max_{m}"] - group[f"min_{m}"]
    results["group_metrics"] = group
    with open(output, "w") as f:
        json.dump(results, f, ensure_ascii=False, indent=4)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--eval":
        return run_like_eval_py(sys.argv[2], "dev", sys.argv[3], sys.argv[4])
    pairs = [json.loads(line) for line in sys.stdin if line.strip()]
    start = time.perf_counter()
    items = [score(p["prediction"], p["targets"]) for p in pairs]
    seconds = time.perf_counter() - start
    json.dump({"engine": ENGINE, "seconds": seconds, "items": items}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
