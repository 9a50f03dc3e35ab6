"""Retrieval by embeddings alone on bench:quality's library questions: the measure the embedding scripts share.

Its three real companies are never in training/. Each entry is embedded as the product embeds it
("question\\nanswer"), each question alone; the rank of the labelled entry among the company's library by cosine
gives recall@1/5/20 per family and overall.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def recall_at(embed: Callable[[list[str]], np.ndarray]) -> dict:
    """`embed` maps texts to unit vectors (one row each)."""
    hits: dict[str, list[int]] = defaultdict(list)
    for company in sorted((ROOT / "bench/quality/companies").iterdir()):
        if not (company / "questions.json").exists():
            continue
        library = json.loads((company / "library.json").read_text())
        questions = [q for q in json.loads((company / "questions.json").read_text()) if q["expect"]["kind"] == "library"]
        entries = embed([f"{e['question']}\n{e['answer']}" for e in library])
        asked = embed([q["question"] for q in questions])
        order = np.argsort(-(asked @ entries.T), axis=1)
        for q, row in zip(questions, order):
            want = set(q["expect"].get("entries") or [q["expect"].get("entry")])
            rank = next((i for i, j in enumerate(row) if library[j]["id"] in want), 10_000)
            hits[q.get("family", "unknown")].append(rank)
            hits["overall"].append(rank)
    return {fam: {f"recall@{k}": round(sum(r < k for r in ranks) / len(ranks), 4) for k in (1, 5, 20)} | {"n": len(ranks)}
            for fam, ranks in sorted(hits.items())}
