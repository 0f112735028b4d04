#!/usr/bin/env bash
# What the opt-in Maven profile vllm-conformance runs (docs/vllm-conformance.md, section 2):
#
#   clients/python/conformance/verify.sh VLLM_ENV OUT [harness options]
#
# 1. the documented config against vLLM's own plugin loader and connector factory (tests/vllm_live_check.py),
#    with this package installed as a user installs it (pip install, here into OUT/site, so vLLM finds the
#    plugin's entry point; the environment's venv is not changed);
# 2. the conformance harness (run.sh) on the workloads the options name, into OUT/harness.
# Exits non-zero when either fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
env_dir="$(cd "${1:?usage: verify.sh VLLM_ENV OUT [harness options]}" && pwd)"
out="${2:?usage: verify.sh VLLM_ENV OUT [harness options]}"
shift 2
mkdir -p "$out"
out="$(cd "$out" && pwd)"
(
  . "$env_dir/env.sh"
  rm -rf "$out/site" "$out/package"
  mkdir -p "$out/package"  # a copy, so pip's build leaves nothing in the source folder
  cp -r "$here/../pyproject.toml" "$here/../kvledger" "$here/../kvledger_capture" "$out/package/"
  "$VLLM_PYTHON" -m pip install -q --no-deps --no-build-isolation --no-index --target "$out/site" "$out/package"
  cd "$here/.."
  echo "vllm-conformance: the documented --kv-transfer-config against vLLM's connector factory"
  PYTHONPATH="$VLLM_SRC:$out/site" "$VLLM_PYTHON" -m tests.vllm_live_check
)
echo "vllm-conformance: the harness, into $out/harness"
exec "$here/run.sh" "$env_dir" --out "$out/harness" "$@"
