"""Exports a tuned embedding model to ONNX, quantizes it to int8, and checks it against the product's current model.

The product runs a BERT encoder through onnxruntime-node with inputs input_ids / attention_mask (token_type_ids when
the graph has it) and mean-pools the first output (server/embedding/local-embedder.ts); the export keeps that
interface, so the loader needs no change. The int8 weights are dynamically quantized (per-channel MatMul weights),
as the model the product obtains today is.

  export_onnx.py MODEL_DIR OUT_DIR [--reference models/all-minilm-l6-v2-q]

Writes OUT_DIR/model.onnx (int8) and OUT_DIR/tokenizer.json, prints the SHA-256 and size of each, the cosine between
the PyTorch model's and the int8 graph's embeddings on the bench:quality questions (how much quantization moved
them), and recall@1/5/20 of the int8 graph beside the reference on bench:quality's library questions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer
from transformers import AutoModel, AutoTokenizer

from bench_retrieval import recall_at

ROOT = Path(__file__).resolve().parents[2]


class Encoder(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).last_hidden_state


def onnx_embed(session: ort.InferenceSession, tok: Tokenizer, texts: list[str], max_tokens: int = 256) -> np.ndarray:
    tok.enable_truncation(max_tokens)
    tok.enable_padding()
    out = []
    names = [i.name for i in session.get_inputs()]
    for i in range(0, len(texts), 32):
        enc = tok.encode_batch(texts[i : i + 32])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feeds)[0]
        pooled = (hidden * mask[..., None]).sum(1) / np.clip(mask.sum(1, keepdims=True), 1e-9, None)
        out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
    return np.concatenate(out)


def recall(session: ort.InferenceSession, tok: Tokenizer) -> dict:
    return recall_at(lambda texts: onnx_embed(session, tok, texts))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--reference", default=str(ROOT / "models/all-minilm-l6-v2-q"))
    ap.add_argument("--skip-reference", action="store_true", help="do not measure the reference model")
    args = ap.parse_args()
    torch.set_num_threads(2)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    model = AutoModel.from_pretrained(args.model).eval()
    hf_tok = AutoTokenizer.from_pretrained(args.model)
    sample = hf_tok(["How is privileged access managed?"], return_tensors="pt")
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model-fp32.onnx"
        torch.onnx.export(
            Encoder(model),
            (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
            str(fp32),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "sequence"} for n in
                          ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )
        quantize_dynamic(str(fp32), str(out / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    shutil.copy(Path(args.model) / "tokenizer.json", out / "tokenizer.json")
    for f in ("model.onnx", "tokenizer.json"):
        print(f, sha256(out / f), (out / f).stat().st_size, "bytes")

    tok = Tokenizer.from_file(str(out / "tokenizer.json"))
    session = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
    texts = [q["question"] for c in (ROOT / "bench/quality/companies").iterdir() if (c / "questions.json").exists()
             for q in json.loads((c / "questions.json").read_text())][:200]
    with torch.no_grad():
        enc = hf_tok(texts, truncation=True, max_length=256, padding=True, return_tensors="pt")
        hidden = model(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).float()
        ref = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1).numpy()
    cos = (onnx_embed(session, tok, texts) * ref).sum(1)
    print(f"int8 vs PyTorch cosine on 200 questions: min {cos.min():.4f} mean {cos.mean():.4f}")
    print("recall, int8 export:", json.dumps(recall(session, tok)))
    if args.skip_reference:
        return
    reference = Path(args.reference)
    ref_session = ort.InferenceSession(str(reference / "model.onnx"), providers=["CPUExecutionProvider"])
    print("recall, reference:  ", json.dumps(recall(ref_session, Tokenizer.from_file(str(reference / "tokenizer.json")))))


if __name__ == "__main__":
    main()
