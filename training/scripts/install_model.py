"""Installs an exported embedding model as Verity's own: models/<new id>/ and models.json's pins.

A retrained model gets a new id (verity-embed-v1 -> v2), never the old one: the id is stored beside every vector,
so a new id is what makes the server embed the library again with it. The previous version stays in git's history;
remove its folder with `git rm -r models/<old id>` when committing the new one.

  install_model.py EXPORT_DIR
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "server/embedding/models.json"


def main() -> None:
    src = Path(sys.argv[1])
    catalog = json.loads(CATALOG.read_text())
    old = catalog["default"]
    match = re.fullmatch(r"(.*-v)(\d+)", old)
    if not match:
        raise SystemExit(f"models.json: the default model id {old} does not end in -v<number>")
    new = f"{match.group(1)}{int(match.group(2)) + 1}"
    dest = ROOT / "models" / new
    dest.mkdir(parents=True, exist_ok=True)
    spec = dict(catalog["own"][old])
    spec["files"] = {}
    for name in ("model.onnx", "tokenizer.json"):
        shutil.copy(src / name, dest / name)
        data = (dest / name).read_bytes()
        spec["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    spec["title"] = spec["title"].replace(old, new)
    shutil.copy(ROOT / "models" / old / spec["card"], dest / spec["card"])
    catalog["own"][new] = spec
    catalog["default"] = new
    CATALOG.write_text(json.dumps(catalog, indent=2) + "\n")
    print(f"installed {new} in {dest}; models.json's default is now {new}.")
    print(f"Update {dest / spec['card']} (command, figures), rerun npm run bench:fit, then git rm -r models/{old}.")


if __name__ == "__main__":
    main()
