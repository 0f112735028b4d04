#!/usr/bin/env bash
# Builds the environment in which vLLM's scheduler runs unbuilt on the CPU, for the conformance harness.
#
#   clients/python/conformance/setup_env.sh VLLM [DEST]
#
# VLLM: a vLLM checkout (a folder with vllm/ and tests/) or a bare git repository of one (its HEAD is
# unpacked with git archive). DEST (default: ./vllm-env) gets:
#   src/      vLLM's vllm/, tests/ and requirements/ folders (never part of this repository);
#   venv/     a Python 3.11 venv with torch (CPU) and what vLLM's scheduler side imports from
#             requirements/common.txt (a requirement pip cannot find is skipped and listed), pytest;
#             stand-ins for openai_harmony, pybase64, llguidance, xgrammar (imported at start-up, never
#             called by the scheduler); a metadata-only vllm dist-info whose version ends in "+cpu", so
#             importlib.metadata answers and vLLM picks its CPU platform (else it refuses the hybrid manager);
#   hf/       a Hugging Face cache entry with a hand-written config.json for facebook/opt-125m, the model
#             vLLM's test utilities name (used with HF_HUB_OFFLINE=1);
#   env.sh    the exports: PYTHONPATH, HF_HOME, HF_HUB_OFFLINE, PYTHONHASHSEED, VLLM_PYTHON.
# Then it runs vLLM's own tests/v1/kv_connector/unit/offloading_connector/test_scheduler.py as the proof
# (skip with CHECK=0). Environment: PYTHON (default python3.11), TORCH_VERSION (default 2.13.0),
# VLLM_VERSION (the dist-info's version, default 0.28.0.dev0+cpu), PIP_ARGS (extra pip arguments, e.g. an
# --index-url of a local mirror).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vllm="${1:?usage: setup_env.sh VLLM [DEST]}"
dest="$(mkdir -p "${2:-vllm-env}" && cd "${2:-vllm-env}" && pwd)"
python="${PYTHON:-python3.11}"
version="${VLLM_VERSION:-0.28.0.dev0+cpu}"
read -r -a pip_args <<< "${PIP_ARGS:-}"

echo "== vLLM's source into $dest/src"
rm -rf "$dest/src" && mkdir -p "$dest/src"
if [[ -d "$vllm/vllm" && -d "$vllm/tests" ]]; then
  cp -r "$vllm/vllm" "$vllm/tests" "$dest/src/"
  [[ -d "$vllm/requirements" ]] && cp -r "$vllm/requirements" "$dest/src/"
else
  # (a partial clone may lack blobs outside these folders; git then complains, the folders still come)
  git --git-dir="$vllm" archive HEAD vllm tests requirements | tar -x -C "$dest/src" || true
fi
[[ -d "$dest/src/vllm" && -f "$dest/src/requirements/common.txt" ]] || { echo "no vllm/ or requirements/ in $vllm" >&2; exit 1; }

echo "== venv ($python)"
[[ -x "$dest/venv/bin/python" ]] || "$python" -m venv "$dest/venv"
pip=("$dest/venv/bin/python" -m pip install -q "${pip_args[@]}")
"${pip[@]}" "torch==${TORCH_VERSION:-2.13.0}"
# requirements/common.txt by name (the local store may not hold the pinned versions); the four packages
# stood in for below, and what the scheduler never imports, are left out.
skip='^(llguidance|xgrammar|openai[-_]harmony|pybase64|setuptools|six)$'
names=()
while read -r line; do
  name="$(sed -E 's/#.*//; s/\[.*\]//; s/[ ;<>=!~].*//' <<< "$line")"
  [[ -n "$name" && ! "$name" =~ $skip ]] && names+=("$name")
done < "$dest/src/requirements/common.txt"
names+=(pytest pytest-asyncio uvloop xxhash)
# One resolution of them all; a requirement pip cannot satisfy (itself, or the one that needs it) is
# dropped and the rest tried again; if pip's error names neither, each is tried alone.
norm() { tr 'A-Z_' 'a-z-' <<< "$1"; }
skipped=()
for _ in $(seq 1 40); do
  if out="$("${pip[@]}" "${names[@]}" 2>&1)"; then break; fi
  missing="$(grep -oE 'No matching distribution found for [^ ;<>=!~]+' <<< "$out" | head -1 | awk '{print $NF}' || true)"
  parent="$(grep -oE 'satisfies the requirement [^ ]+ [(]from [^ )]+' <<< "$out" | grep -v '(from versions' \
            | head -1 | sed -E 's/.*[(]from //' || true)"
  kept=()
  for name in "${names[@]}"; do
    n="$(norm "$name")"
    if [[ "$n" == "$(norm "${parent:-}")" || ( -z "$parent" && "$n" == "$(norm "${missing%%[*}")" ) ]]; then
      skipped+=("$name")
    else
      kept+=("$name")
    fi
  done
  if (( ${#kept[@]} == ${#names[@]} )); then
    kept=()
    for name in "${names[@]}"; do
      if "${pip[@]}" "$name" > /dev/null 2>&1; then kept+=("$name"); else skipped+=("$name"); fi
    done
    names=("${kept[@]}")
    break
  fi
  names=("${kept[@]}")
done
echo "installed: ${names[*]}"
echo "skipped (pip could not install them or a dependency): ${skipped[*]:-none}"

site="$("$dest/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "== stand-ins and the vllm dist-info in $site"
for module in openai_harmony pybase64 llguidance xgrammar; do
  if ! "$dest/venv/bin/python" -c "import $module" 2>/dev/null || [[ -f "$site/$module/.kvledger-stand-in" ]]; then
    mkdir -p "$site/$module"
    cp "$here/templates/stub_module.py" "$site/$module/__init__.py"
    : > "$site/$module/.kvledger-stand-in"
  fi
done
rm -rf "$site"/vllm-*.dist-info
info="$site/vllm-$version.dist-info"
mkdir -p "$info"
sed "s/@VERSION@/$version/" "$here/templates/METADATA" > "$info/METADATA"
echo kvledger-conformance > "$info/INSTALLER"
: > "$info/RECORD"

echo "== Hugging Face cache entry for facebook/opt-125m"
rev=0000000000000000000000000000000000000000
model="$dest/hf/hub/models--facebook--opt-125m"
mkdir -p "$model/snapshots/$rev" "$model/refs"
printf %s "$rev" > "$model/refs/main"
cp "$here/templates/opt-125m-config.json" "$model/snapshots/$rev/config.json"

cat > "$dest/env.sh" <<ENV
export VLLM_SRC="$dest/src"
export PYTHONPATH="$dest/src"
export HF_HOME="$dest/hf"
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export PYTHONHASHSEED=0
export VLLM_PYTHON="$dest/venv/bin/python"
ENV
echo "wrote $dest/env.sh"

if [[ "${CHECK:-1}" != 0 ]]; then
  echo "== proof: vLLM's own offloading-connector scheduler tests"
  # --confcutdir: vLLM's top-level tests/conftest.py imports what a full install has (LLM, tblib, ...).
  (. "$dest/env.sh" && cd "$dest/src" && "$VLLM_PYTHON" -m pytest -q -p no:cacheprovider \
     --confcutdir=tests/v1/kv_connector/unit/offloading_connector \
     tests/v1/kv_connector/unit/offloading_connector/test_scheduler.py)
fi
