"""The doubly-labelled sample and its agreement.

  agreement.py sample [--n 500]   writes training/build/kappa/sample-<k>.jsonl (k = 1..4, 125 pairs each by default):
                                  pairs from build/pairs.jsonl, half of them the first labeller's named entries and
                                  half BM25 look-alikes and random ones, shuffled, WITHOUT the first label, for a
                                  second labeller who judges each pair on its own by guidelines.md
  agreement.py kappa              reads training/data/agreement/*.jsonl (the second labels: qid, company, entry,
                                  label in answers|partly|not) and prints Cohen's kappa against the first labels,
                                  over the three labels and over answers/not (partly left out)
"""

from __future__ import annotations

import argparse
import glob
import json
import random
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261128
NAMES = {1.0: "answers", 0.5: "partly", 0.0: "not"}


def kappa(a: list[str], b: list[str]) -> float:
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    return (observed - expected) / (1 - expected) if expected < 1 else 1.0


def sample(n: int, parts: int) -> None:
    rng = random.Random(SEED)
    pairs = [json.loads(l) for l in open(ROOT / "training/build/pairs.jsonl", encoding="utf-8")]
    named = [p for p in pairs if p["kind"] == "named"]
    others = [p for p in pairs if p["kind"] != "named"]
    chosen = rng.sample(named, min(n // 2, len(named))) + rng.sample(others, n - min(n // 2, len(named)))
    rng.shuffle(chosen)
    out = ROOT / "training/build/kappa"
    out.mkdir(parents=True, exist_ok=True)
    size = -(-len(chosen) // parts)
    for k in range(parts):
        with open(out / f"sample-{k + 1}.jsonl", "w", encoding="utf-8") as f:
            for p in chosen[k * size : (k + 1) * size]:
                f.write(json.dumps({key: p[key] for key in ("qid", "company", "entry", "question", "candidate")},
                                   ensure_ascii=False) + "\n")
    print(f"{len(chosen)} pairs in {parts} files under {out}")


def report() -> None:
    first = {
        (p["qid"], p["company"], p["entry"]): NAMES[p["label"]]
        for p in map(json.loads, open(ROOT / "training/build/pairs.jsonl", encoding="utf-8"))
    }
    second = [json.loads(l) for f in sorted(glob.glob(str(ROOT / "training/data/agreement/*.jsonl"))) for l in open(f)]
    a, b = [], []
    for s in second:
        key = (s["qid"], s["company"], s["entry"])
        if key in first:
            a.append(first[key])
            b.append(s["label"])
    print(f"{len(a)} pairs labelled twice")
    print(f"  kappa, answers/partly/not: {kappa(a, b):.3f}; raw agreement {sum(x == y for x, y in zip(a, b)) / len(a):.3f}")
    binary = [(x, y) for x, y in zip(a, b) if "partly" not in (x, y)]
    print(f"  kappa, answers/not ({len(binary)} pairs, partly left out): {kappa(*map(list, zip(*binary))):.3f}")
    print("  first \\ second: " + ", ".join(f"{x}->{y}: {n}" for (x, y), n in sorted(Counter(zip(a, b)).items())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("step", choices=["sample", "kappa"])
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--parts", type=int, default=4)
    args = ap.parse_args()
    sample(args.n, args.parts) if args.step == "sample" else report()


if __name__ == "__main__":
    main()
