"""Turns question-level labels into labelled (question, library entry) pairs, with hard negatives.

For each labelled (question, company) in training/data/labels/*.jsonl, the candidates are the entries the labeller
named (`answers` -> 1, `partly` -> 0.5), the company's entries a plain BM25 ranks highest for the question (hard
negatives: look-alike topics), and a few random entries (easy negatives). An entry the labeller did not name is `not`
(0): labellers judged each question against the whole library (guidelines.md), which the doubly-labelled sample
checks. Writes training/build/pairs.jsonl (question text included, so it stays out of git).
"""

from __future__ import annotations

import glob
import json
import math
import random
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261128
HARD = 8
EASY = 2

STOP = set(
    "a an and are as at be by do does for from has have how if in is it its of on or the this to was what when where "
    "which who will with you your yours we our us they their there any all can".split()
)


def tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in STOP and len(t) > 1]


class BM25:
    def __init__(self, docs: list[list[str]], k1: float = 1.2, b: float = 0.75):
        self.docs, self.k1, self.b = docs, k1, b
        self.avg = sum(map(len, docs)) / max(1, len(docs))
        df = Counter(t for d in docs for t in set(d))
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.tf = [Counter(d) for d in docs]

    def scores(self, query: list[str]) -> list[float]:
        out = []
        for d, tf in zip(self.docs, self.tf):
            s = 0.0
            for t in query:
                if t in tf:
                    f = tf[t]
                    s += self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * len(d) / self.avg))
            out.append(s)
        return out


def main() -> None:
    rng = random.Random(SEED)
    questions = {
        json.loads(l)["qid"]: json.loads(l) for l in open(ROOT / "training/build/questions.jsonl", encoding="utf-8")
    }
    libraries, indexes = {}, {}
    for lib in glob.glob(str(ROOT / "training/companies/*/library.json")):
        company = Path(lib).parent.name
        entries = json.load(open(lib, encoding="utf-8"))
        libraries[company] = entries
        indexes[company] = BM25([tokens(e["question"] + " " + e["answer"]) for e in entries])
    pairs, stale = [], 0
    for path in sorted(glob.glob(str(ROOT / "training/data/labels/*.jsonl"))):
        for line in open(path, encoding="utf-8"):
            lab = json.loads(line)
            q = questions.get(lab["qid"])
            if q is None or q["sha256"] != lab["sha256"]:
                stale += 1  # the source file changed since labelling: never pair a label with another text
                continue
            entries = libraries[lab["company"]]
            by_id = {e["id"]: e for e in entries}
            label = {i: 1.0 for i in lab["answers"]}
            label.update({i: 0.5 for i in lab["partly"] if i not in label})
            scores = indexes[lab["company"]].scores(tokens(q["text"]))
            ranked = sorted(range(len(entries)), key=lambda i: -scores[i])
            rank_of = {entries[i]["id"]: r for r, i in enumerate(ranked)}
            chosen = list(label)
            chosen += [entries[i]["id"] for i in ranked if entries[i]["id"] not in chosen][:HARD]
            rest = [e["id"] for e in entries if e["id"] not in chosen]
            chosen += rng.sample(rest, min(EASY, len(rest)))
            for eid in chosen:
                e = by_id[eid]
                pairs.append({
                    "qid": q["qid"], "family": q["family"], "company": lab["company"], "entry": eid,
                    "question": q["text"], "candidate": f"{e['question']}\n{e['answer']}",
                    "label": label.get(eid, 0.0), "kind": "named" if eid in label else "bm25-or-random",
                    "bm25_rank": rank_of[eid],
                    "labeller": lab["labeller"], "source": q["source"], "licence": q["licence"],
                })
    out = ROOT / "training/build/pairs.jsonl"
    with open(out, "w", encoding="utf-8") as f:
        for p in pairs:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    pos = sum(1 for p in pairs if p["label"] == 1.0)
    part = sum(1 for p in pairs if p["label"] == 0.5)
    print(f"{len(pairs)} pairs over {len({(p['qid'], p['company']) for p in pairs})} labelled questions "
          f"({len({p['qid'] for p in pairs})} distinct): {pos} answers, {part} partly; {stale} stale labels skipped")


if __name__ == "__main__":
    main()
