"""Trains the relevance cross-encoder on training/build/pairs.jsonl and reports held-out figures.

Splits are by questionnaire family and by company, never by pair: the test family's questions and the test company's
library are never seen in training (a question appears in two companies' pairs, so a random split would leak it).

  train_reranker.py [--test-family hecvat] [--test-company veldhaven] [--epochs 1] [--limit N] [--out DIR]

Writes DIR/model (Hugging Face folder), DIR/metrics.json and prints, per held-out view: pairs, ROC AUC of answers vs
not, top-1 (the best-scored candidate answers, over questions with an answering entry), and how often a question with
no answering entry still gets a candidate at >= 0.5 — next to BM25's first candidate on the same questions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import defaultdict
from pathlib import Path

import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261128


def load_pairs() -> list[dict]:
    return [json.loads(l) for l in open(ROOT / "training/build/pairs.jsonl", encoding="utf-8")]


def split(pairs: list[dict], family: str, company: str) -> dict[str, list[dict]]:
    views: dict[str, list[dict]] = defaultdict(list)
    for p in pairs:
        f, c = p["family"] == family, p["company"] == company
        views["train" if not f and not c else "test-family" if f and not c else "test-company" if c and not f else "test-both"].append(p)
    return views


def auc(pos: list[float], neg: list[float]) -> float:
    if not pos or not neg:
        return float("nan")
    scored = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg])
    rank_sum, i = 0.0, 0
    while i < len(scored):
        j = i
        while j < len(scored) and scored[j][0] == scored[i][0]:
            j += 1
        avg = (i + j + 1) / 2
        rank_sum += avg * sum(1 for k in range(i, j) if scored[k][1] == 1)
        i = j
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def evaluate(view: list[dict], scores: list[float]) -> dict:
    groups: dict[tuple, list[tuple[float, dict, int]]] = defaultdict(list)
    for order, (p, s) in enumerate(zip(view, scores)):
        groups[(p["qid"], p["company"])].append((s, p, order))
    top1 = top1_bm25 = answered = 0
    uncovered = uncovered_shown = 0
    for items in groups.values():
        has_pos = any(p["label"] == 1.0 for _, p, _ in items)
        best = max(items, key=lambda t: t[0])
        bm25_first = min(items, key=lambda t: t[1]["bm25_rank"])[1]
        if has_pos:
            answered += 1
            top1 += best[1]["label"] == 1.0
            top1_bm25 += bm25_first["label"] == 1.0
        else:
            uncovered += 1
            uncovered_shown += best[0] >= 0.5
    pos = [s for p, s in zip(view, scores) if p["label"] == 1.0]
    neg = [s for p, s in zip(view, scores) if p["label"] == 0.0]
    return {
        "pairs": len(view),
        "questions": len(groups),
        "auc_answers_vs_not": round(auc(pos, neg), 4),
        "top1_when_covered": round(top1 / answered, 4) if answered else None,
        "bm25_top1_when_covered": round(top1_bm25 / answered, 4) if answered else None,
        "covered_questions": answered,
        "uncovered_questions": uncovered,
        "uncovered_shown_at_0.5": round(uncovered_shown / uncovered, 4) if uncovered else None,
    }


@torch.no_grad()
def predict(model, tok, view: list[dict], max_length: int, batch: int = 64) -> list[float]:
    model.eval()
    out: list[float] = []
    for i in range(0, len(view), batch):
        chunk = view[i : i + batch]
        enc = tok([p["question"] for p in chunk], [p["candidate"] for p in chunk], truncation=True,
                  max_length=max_length, padding=True, return_tensors="pt")
        out.extend(torch.sigmoid(model(**enc).logits.squeeze(-1)).tolist())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=str(ROOT / "training/build/base/all-minilm-l6-v2"))
    ap.add_argument("--test-family", default="hecvat")
    ap.add_argument("--test-company", default="veldhaven")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--max-length", type=int, default=160)
    ap.add_argument("--limit", type=int, default=0, help="train on at most N pairs (a smoke run)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--partly", choices=["half", "drop"], default="half",
                    help="train on partly pairs with target 0.5, or leave them out")
    ap.add_argument("--pos-weight", type=float, default=1.0, help="weight of the positive class in the loss")
    ap.add_argument("--out", default=str(ROOT / "training/build/reranker"))
    args = ap.parse_args()

    random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    views = split(load_pairs(), args.test_family, args.test_company)
    train = views["train"]
    if args.partly == "drop":
        train = [p for p in train if p["label"] != 0.5]
    random.shuffle(train)
    if args.limit:
        train = train[: args.limit]
    print({k: len(v) for k, v in views.items()}, flush=True)

    tok = AutoTokenizer.from_pretrained(args.base)
    model = AutoModelForSequenceClassification.from_pretrained(args.base, num_labels=1)
    steps = max(1, math.ceil(len(train) * args.epochs / args.batch))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(opt, int(0.1 * steps), steps)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(args.pos_weight))

    def batches():
        while True:
            random.shuffle(train)
            yield from DataLoader(train, batch_size=args.batch, collate_fn=lambda b: b)

    model.train()
    started, it = time.time(), batches()
    for step in range(steps):
        chunk = next(it)
        enc = tok([p["question"] for p in chunk], [p["candidate"] for p in chunk], truncation=True,
                  max_length=args.max_length, padding=True, return_tensors="pt")
        target = torch.tensor([p["label"] for p in chunk], dtype=torch.float)
        loss = loss_fn(model(**enc).logits.squeeze(-1), target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        if step % 50 == 0 or step == steps - 1:
            rate = (step + 1) * args.batch / (time.time() - started)
            print(f"step {step + 1}/{steps} loss {loss.item():.4f} {rate:.1f} pairs/s", flush=True)

    out = Path(args.out)
    (out / "model").mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out / "model")
    tok.save_pretrained(out / "model")
    metrics = {"args": vars(args), "train_pairs": len(train), "seconds": round(time.time() - started)}
    for name in ("test-family", "test-company", "test-both"):
        if views[name]:
            metrics[name] = evaluate(views[name], predict(model, tok, views[name], args.max_length))
            print(name, metrics[name], flush=True)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
