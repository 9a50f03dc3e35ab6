"""Tunes the embedding model (all-MiniLM-L6-v2) on the labelled pairs and measures retrieval on bench:quality.

The product embeds a library entry as "question\\nanswer" and a question alone, mean-pooled and normalized
(server/embedding/); this does the same. Training: multiple-negatives ranking loss over the training companies'
pairs labelled `answers` (training/build/pairs.jsonl), each with its question's highest-BM25 entry labelled `not` as
a hard negative, the other pairs of the batch as further negatives. Evaluation: bench:quality's three real companies
(never in training), recall@1/5/20 of the labelled entry among the company's library by cosine alone, per family,
for the base model and the tuned one — the issue keeps a tuned bi-encoder only if it raises recall@20 on held-out
families.

  train_biencoder.py [--epochs 1] [--lr 2e-5] [--batch 32] [--out DIR] [--eval-only] [--limit N] [--skip-base]
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
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer, get_linear_schedule_with_warmup

from bench_retrieval import recall_at

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261128


def embed(model, tok, texts: list[str], max_length: int, batch: int = 64, grad: bool = False) -> torch.Tensor:
    outs = []
    for i in range(0, len(texts), batch):
        enc = tok(texts[i : i + batch], truncation=True, max_length=max_length, padding=True, return_tensors="pt")
        with torch.set_grad_enabled(grad):
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            outs.append(F.normalize(pooled, dim=-1))
    return torch.cat(outs)


def training_triples() -> list[tuple[str, str, str]]:
    pairs = [json.loads(l) for l in open(ROOT / "training/build/pairs.jsonl", encoding="utf-8")]
    by_question: dict[tuple, list[dict]] = defaultdict(list)
    for p in pairs:
        by_question[(p["qid"], p["company"])].append(p)
    triples = []
    for items in by_question.values():
        negatives = sorted((p for p in items if p["label"] == 0.0), key=lambda p: p["bm25_rank"])
        if not negatives:
            continue
        for p in items:
            if p["label"] == 1.0:
                triples.append((p["question"], p["candidate"], negatives[0]["candidate"]))
    return triples


def evaluate(model, tok) -> dict:
    model.eval()
    return recall_at(lambda texts: embed(model, tok, texts, 256).numpy())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=str(ROOT / "training/build/base/all-minilm-l6-v2"))
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--scale", type=float, default=20.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "training/build/biencoder"))
    ap.add_argument("--eval-only", action="store_true")
    # CI's smoke run: a few hundred triples, no measure of the base model, so the script cannot rot unnoticed.
    ap.add_argument("--limit", type=int, default=0, help="train on the first N triples (after a seeded shuffle)")
    ap.add_argument("--skip-base", action="store_true", help="do not measure the base model first")
    args = ap.parse_args()
    random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)

    tok = AutoTokenizer.from_pretrained(args.base)
    model = AutoModel.from_pretrained(args.base)
    metrics = {}
    if not args.skip_base:
        metrics["base"] = evaluate(model, tok)
        print("base", json.dumps(metrics["base"]), flush=True)
    if args.eval_only:
        return

    triples = training_triples()
    if args.limit:
        triples = random.Random(SEED).sample(triples, min(args.limit, len(triples)))
    steps = max(1, math.ceil(len(triples) * args.epochs / args.batch))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(opt, int(0.1 * steps), steps)
    print(f"{len(triples)} triples, {steps} steps", flush=True)
    started = time.time()
    model.train()
    order: list[tuple[str, str, str]] = []
    for step in range(steps):
        if len(order) < args.batch:
            order += random.sample(triples, len(triples))
        chunk, order = order[: args.batch], order[args.batch :]
        q = embed(model, tok, [t[0] for t in chunk], 128, grad=True)
        d = embed(model, tok, [t[1] for t in chunk] + [t[2] for t in chunk], 256, grad=True)
        loss = F.cross_entropy(args.scale * q @ d.T, torch.arange(len(chunk)))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        if step % 10 == 0 or step == steps - 1:
            print(f"step {step + 1}/{steps} loss {loss.item():.4f} {(step + 1) * args.batch / (time.time() - started):.1f} triples/s", flush=True)

    metrics["tuned"] = evaluate(model, tok)
    metrics["args"] = vars(args)
    metrics["triples"] = len(triples)
    metrics["seconds"] = round(time.time() - started)
    print("tuned", json.dumps(metrics["tuned"]), flush=True)
    out = Path(args.out)
    (out / "model").mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out / "model")
    tok.save_pretrained(out / "model")
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
