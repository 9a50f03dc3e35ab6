"""Assigns each pooled question to two training companies for labelling (seeded, so reruns give the same split).

Reads training/build/questions.jsonl (build_questions.py) and writes training/build/assignments/<company>.jsonl: the
questions a labeller judges against that company's library and documents. Two companies per question, chosen so each
company gets every family in about the same share; the labels written from these files live in training/data/labels.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261128
PER_QUESTION = 2


def main() -> None:
    companies = sorted(p.name for p in (ROOT / "training" / "companies").iterdir() if (p / "library.json").exists())
    questions = [json.loads(l) for l in open(ROOT / "training" / "build" / "questions.jsonl", encoding="utf-8")]
    rng = random.Random(SEED)
    by_family: dict[str, list[dict]] = defaultdict(list)
    for q in questions:
        by_family[q["family"]].append(q)
    out: dict[str, list[dict]] = defaultdict(list)
    for family in sorted(by_family):
        items = by_family[family]
        rng.shuffle(items)
        for i, q in enumerate(items):
            # Consecutive pairs of companies, rotating, so the load stays even within a family.
            first = (i * PER_QUESTION) % len(companies)
            for k in range(PER_QUESTION):
                c = companies[(first + k) % len(companies)]
                out[c].append({"qid": q["qid"], "family": q["family"], "sha256": q["sha256"], "text": q["text"]})
    target = ROOT / "training" / "build" / "assignments"
    target.mkdir(parents=True, exist_ok=True)
    for c, items in out.items():
        items.sort(key=lambda q: q["qid"])
        with open(target / f"{c}.jsonl", "w", encoding="utf-8") as f:
            for q in items:
                f.write(json.dumps(q, ensure_ascii=False) + "\n")
        print(f"{c:12} {len(items)} questions")


if __name__ == "__main__":
    main()
