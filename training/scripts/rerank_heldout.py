"""Scores bench:quality's held-out candidates with a trained cross-encoder and says whether it would help the engine.

The input is what `DUMP=file npm run bench:quality` writes: for every question of the headline folds (held out by
company and family), the engine's top candidates with its own confidence and whether each is right. The companies
of bench:quality are never in training/, so every figure here is held out by company; a family is held out only when
the model was trained without it (train_reranker.py --test-family).

  rerank_heldout.py DUMP MODEL_DIR [--max-length 160]

Prints, per family and overall:
  - how often the first candidate is right, as the engine ranks them and as the cross-encoder reranks them;
  - AUC of "the engine's first candidate is right" for the engine's confidence, the cross-encoder's probability of
    that candidate, and both (a logistic model fitted leave-one-family-out, so never on the family it scores);
  - answered-right / answered-wrong among all questions when each score answers above a threshold chosen on the
    other families (right − 2·wrong, the cost bench:fit uses), the engine's own decision beside them.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict

import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

WRONG_COST = 2.0


def auc(scores: list[float], labels: list[int]) -> float:
    pos = [s for s, l in zip(scores, labels) if l]
    neg = [s for s, l in zip(scores, labels) if not l]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 3000, l2: float = 0.01) -> tuple[np.ndarray, float]:
    mean, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / sd
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float((p - y).mean())
    return w / sd, b - float((w / sd) @ mean)


@torch.no_grad()
def score(model, tok, pairs: list[tuple[str, str]], max_length: int, batch: int = 32) -> list[float]:
    out: list[float] = []
    for i in range(0, len(pairs), batch):
        chunk = pairs[i : i + batch]
        enc = tok([q for q, _ in chunk], [c for _, c in chunk], truncation=True, max_length=max_length,
                  padding=True, return_tensors="pt")
        out.extend(torch.sigmoid(model(**enc).logits.squeeze(-1)).tolist())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("model")
    ap.add_argument("--max-length", type=int, default=160)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    rows = [json.loads(l) for l in open(args.dump, encoding="utf-8") if l.strip()]
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).eval()
    pairs = [(r["question"], c["text"]) for r in rows for c in r["candidates"]]
    probs = iter(score(model, tok, pairs, args.max_length))
    for r in rows:
        for c in r["candidates"]:
            c["ce"] = next(probs)

    families = sorted({r["family"] for r in rows})
    by_family: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)

    def first_right(r: dict, key: str) -> bool:
        if not r["candidates"]:
            return False
        return max(r["candidates"], key=lambda c: c[key])["right"]

    # The engine's first candidate: right or not, with the engine's and the cross-encoder's score of it.
    def features(r: dict) -> list[float]:
        top = r["candidates"][0]
        second = r["candidates"][1]["ce"] if len(r["candidates"]) > 1 else 0.0
        return [top["confidence"], top["ce"], top["ce"] - second]

    with_candidates = [r for r in rows if r["candidates"]]
    combined: dict[str, float] = {}
    for fam in families:
        train = [r for r in with_candidates if r["family"] != fam]
        w, b = fit_logistic(np.array([features(r) for r in train]),
                            np.array([float(r["candidates"][0]["right"]) for r in train]))
        for r in with_candidates:
            if r["family"] == fam:
                combined[r["id"]] = float(1 / (1 + math.exp(-(np.array(features(r)) @ w + b))))

    scorers = {
        "engine": lambda r: r["candidates"][0]["confidence"],
        "cross-encoder": lambda r: r["candidates"][0]["ce"],
        "both": lambda r: combined[r["id"]],
    }

    def threshold_for(train: list[dict], s) -> float:
        best_t, best = 1.01, 0.0
        for t in [i / 100 for i in range(5, 100)]:
            gain = sum((1 if r["candidates"][0]["right"] else -WRONG_COST) for r in train if s(r) >= t)
            if gain > best:
                best_t, best = t, gain
        return best_t

    def report(label: str, rs: list[dict]) -> None:
        rc = [r for r in rs if r["candidates"]]
        lib = [r for r in rs if r["expect"] == "library"]
        line = [f"{label:10s} n={len(rs):4d}",
                f"first right: engine {100 * sum(first_right(r, 'confidence') for r in lib) / max(1, len(lib)):5.1f}%"
                f" reranked {100 * sum(first_right(r, 'ce') for r in lib) / max(1, len(lib)):5.1f}%"]
        ys = [int(r["candidates"][0]["right"]) for r in rc]
        line.append("AUC " + " ".join(f"{k} {auc([s(r) for r in rc], ys):.3f}" for k, s in scorers.items()))
        engine_right = sum(r["correct"] and r["given"] == "library" for r in lib)
        engine_wrong = sum(r["given"] == "library" and not r["correct"] for r in rs)
        line.append(f"engine decision: right {100 * engine_right / max(1, len(lib)):5.1f}% of library,"
                    f" wrong library answers {100 * engine_wrong / max(1, len(rs)):4.1f}% of all")
        print("  ".join(line))

    def decisions(label: str) -> None:
        for name, s in scorers.items():
            right = wrong = lib = n = 0
            for fam in families:
                t = threshold_for([r for r in with_candidates if r["family"] != fam], s)
                for r in by_family[fam]:
                    n += 1
                    lib += r["expect"] == "library"
                    if r["candidates"] and s(r) >= t:
                        right += r["candidates"][0]["right"]
                        wrong += not r["candidates"][0]["right"]
            print(f"  {label} {name:14s} thresholds by other families: right {100 * right / max(1, lib):5.1f}% of library,"
                  f" wrong library answers {100 * wrong / max(1, n):4.1f}% of all")

    for fam in families:
        report(fam, by_family[fam])
    report("overall", rows)
    decisions("overall")


if __name__ == "__main__":
    main()
