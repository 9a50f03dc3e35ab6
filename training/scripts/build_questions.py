"""Builds the pool of real questionnaire questions the training corpus labels.

Reads the public questionnaires in ../shared/questionnaires (never copied into the repository: their licences differ,
see SOURCES below) through their ground truth (truth.json: which rows of which sheets are questions) and writes
training/build/questions.jsonl, one question per line:
  {"qid": "caiq4:A&A-01.1", "family": "caiq", "source": "...", "licence": "...", "file": "...", "sheet": "...",
   "row": 3, "ref": "A&A-01.1", "text": "..."}
qid is stable across runs (family + the questionnaire's own id, else sheet and row); the labels in training/data refer
to questions by qid and by the SHA-256 of the text, so a changed source file is noticed rather than mislabelled.

Questions whose text is also in a bench:quality question set are left out: bench:quality is evaluated on them.
"""

from __future__ import annotations

import argparse
import csv
import glob
import hashlib
import json
import re
import sys
from pathlib import Path

import openpyxl
from openpyxl.utils import column_index_from_string

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "questionnaires"

# Family, source and licence of each file. Licences as their publishers state them; a file whose licence does not let
# the repository hold its text is only read at training time.
SOURCES = {
    "CAIQv4.0.3_WhitePact_completed.xlsx": ("caiq", "CSA CAIQ v4.0.3 (vendor copy, GitHub Guruprasath-Annadurai/Whitepact)", "CSA CCM/CAIQ terms of use (free use with attribution; not redistributed here)"),
    "snapdocs_blank_caiq_questions.csv": ("caiq", "CSA CAIQ v4 question list (snapdocs copy)", "CSA CCM/CAIQ terms of use (free use with attribution; not redistributed here)"),
    "snapdocs_blank_caiq_questions.xlsx": ("caiq", "CSA CAIQ v4 question list (snapdocs copy)", "CSA CCM/CAIQ terms of use (free use with attribution; not redistributed here)"),
    "HECVAT-Full-v3.06.xlsx": ("hecvat", "EDUCAUSE HECVAT Full 3.06", "EDUCAUSE HECVAT licence (CC BY-NC-SA 4.0 per its Introduction sheet; not redistributed here)"),
    "HECVAT-Lite-v2.11.xlsx": ("hecvat", "EDUCAUSE HECVAT Lite 2.11", "EDUCAUSE HECVAT licence (CC BY-NC-SA 4.0 per its Introduction sheet; not redistributed here)"),
    "HECVAT414.xlsx": ("hecvat", "EDUCAUSE HECVAT 4.1.4", "EDUCAUSE HECVAT licence (CC BY-NC-SA 4.0 per its Introduction sheet; not redistributed here)"),
    "SAMM_Assessment_Toolbox_v2.0.xlsx": ("samm", "OWASP SAMM v2.0 assessment toolbox", "CC BY-SA 4.0 (OWASP SAMM)"),
    "lab3_Security_Questionnaire.xlsx": ("sig", "SIG-style question list (lab3 copy)", "unknown (public GitHub copy; not redistributed here)"),
    "ICO_dpia-template.docx": ("dpia", "UK ICO sample DPIA template", "Open Government Licence v3.0"),
    "wanglun7_test-questionnaire.xlsx": ("custom-zh", "five-question Chinese security questionnaire (GitHub wanglun7)", "unknown (public GitHub copy; not redistributed here)"),
}


def clean(text: object) -> str:
    s = "" if text is None else str(text)
    s = s.replace("\u00a0", " ")
    return re.sub(r"\s+", " ", s).strip()


def fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def xlsx_rows(path: Path, sheet: str, column: str, id_column: str | None, rows: list[int]):
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    ws = wb[sheet]
    want = set(rows)
    q_idx = column_index_from_string(column) - 1
    id_idx = column_index_from_string(id_column) - 1 if id_column else None
    for r, values in enumerate(ws.iter_rows(values_only=True), start=1):
        if r in want:
            text = clean(values[q_idx] if q_idx < len(values) else None)
            ref = clean(values[id_idx]) if id_idx is not None and id_idx < len(values) else ""
            yield r, ref, text
    wb.close()


def csv_rows(path: Path, column: str, id_column: str | None, rows: list[int]):
    with path.open(newline="", encoding="utf-8-sig") as f:
        records = list(csv.reader(f))
    q_idx = column_index_from_string(column) - 1
    id_idx = column_index_from_string(id_column) - 1 if id_column else None
    for r in rows:
        rec = records[r - 1]
        yield r, clean(rec[id_idx]) if id_idx is not None else "", clean(rec[q_idx])


def docx_rows(path: Path, table: str, column: str, rows: list[int]):
    import docx  # python-docx

    doc = docx.Document(str(path))
    t = doc.tables[int(table.split()[1]) - 1]
    c = column_index_from_string(column) - 1
    for r in rows:
        yield r, "", clean(t.rows[r - 1].cells[c].text)


def bench_texts() -> set[str]:
    texts: set[str] = set()
    for p in glob.glob(str(ROOT / "bench" / "quality" / "**" / "questions*.json"), recursive=True):
        for q in json.load(open(p, encoding="utf-8")):
            texts.add(fold(q["question"]))
    return texts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "training" / "build" / "questions.jsonl"))
    args = ap.parse_args()
    truth = json.load(open(SHARED / "truth.json", encoding="utf-8"))["files"]
    held_out = bench_texts()
    seen: dict[str, str] = {}
    out: list[dict] = []
    skipped_bench = 0
    for name, spec in truth.items():
        if spec.get("expect") != "questionnaire" or name not in SOURCES:
            continue
        family, source, licence = SOURCES[name]
        path = SHARED / name
        for sheet, s in (spec.get("sheets") or {}).items():
            rows = s.get("questionRows") or []
            if not rows:
                continue
            if spec["format"] == "xlsx":
                it = xlsx_rows(path, sheet, s["questionColumn"], s.get("idColumn"), rows)
            elif spec["format"] == "csv":
                it = csv_rows(path, s["questionColumn"], s.get("idColumn"), rows)
            elif spec["format"] == "docx":
                it = docx_rows(path, sheet, s["questionColumn"], rows)
            else:
                continue
            for row, ref, text in it:
                if len(text) < 8:
                    continue
                key = fold(text)
                if key in held_out:
                    skipped_bench += 1
                    continue
                if key in seen:
                    continue
                qid = f"{family}:{ref}" if ref else f"{family}:{Path(name).stem}:{sheet}:{row}"
                base, n = qid, 2
                while any(o["qid"] == qid for o in out):
                    qid, n = f"{base}#{n}", n + 1
                seen[key] = qid
                out.append({
                    "qid": qid, "family": family, "source": source, "licence": licence, "file": name,
                    "sheet": sheet, "row": row, "ref": ref, "text": text,
                    "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                })
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for q in out:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    by_family: dict[str, int] = {}
    for q in out:
        by_family[q["family"]] = by_family.get(q["family"], 0) + 1
    print(f"{len(out)} distinct questions -> {args.out}; left out as bench:quality's: {skipped_bench}", file=sys.stderr)
    for fam, n in sorted(by_family.items()):
        print(f"  {fam:10} {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
