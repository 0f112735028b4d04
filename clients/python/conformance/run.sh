#!/usr/bin/env bash
# Runs the conformance harness: vLLM's real scheduler wrapped by the capture, every log audited by kvledger.
#
#   clients/python/conformance/run.sh VLLM_ENV [harness options]
#
# VLLM_ENV: the folder setup_env.sh built (its env.sh is sourced). The options are the harness's
# (python -m conformance.harness --help): --workloads N (default 7, one per shape), --first-seed S,
# --shapes plain,async,..., --out DIR (default ./conformance-out), --record DIR, --keep.
# The command line's jar is built by the repository's launcher first (KVLEDGER_JAR overrides it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
env_dir="$(cd "${1:?usage: run.sh VLLM_ENV [harness options]}" && pwd)"
shift
. "$env_dir/env.sh"
jar="${KVLEDGER_JAR:-$root/infrastructure/cli/target/kvledger.jar}"
[[ -n "${KVLEDGER_JAR:-}" ]] || "$root/kvledger" --version > /dev/null
args=("$@")
[[ " ${args[*]:-} " == *" --out "* ]] || args+=(--out conformance-out)
PYTHONPATH="$VLLM_SRC:$here/.." exec "$VLLM_PYTHON" -m conformance.harness --jar "$jar" "${args[@]}"
