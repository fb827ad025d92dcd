#!/usr/bin/env bash
# Builds the Python wheel (maturin, `bindings = "bin"`: the wheel holds only the nodecast binary),
# checks that its platform tag is one PyPI accepts (manylinux_*/musllinux_*), installs it into a
# fresh venv and runs it on the bundled demo. `.ci/run` calls it after the tests (the dev profile
# reuses their build). Usage: tools/wheel-smoke.sh [PYTHON]  (a python with maturin installed)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$python" -m maturin build --profile dev --locked --quiet -o "$out/dist" >/dev/null
wheel="$(ls "$out"/dist/*.whl)"
name="$(basename "$wheel")"
case "$name" in
  nodecast-*-py3-none-manylinux_2_*_x86_64.whl | nodecast-*-py3-none-manylinux_2_*_aarch64.whl | \
    nodecast-*-py3-none-musllinux_1_*.whl) ;;
  *)
    echo "wheel-smoke: $name has no tag PyPI accepts (want manylinux_2_* or musllinux_1_*)" >&2
    exit 1
    ;;
esac
"$python" -m venv "$out/venv"
"$out/venv/bin/pip" install --quiet --no-index "$wheel"
"$out/venv/bin/nodecast" --version
code=0
"$out/venv/bin/nodecast" check --base-dir testdata/demo/before testdata/demo/after >/dev/null || code=$?
if [ "$code" -ne 1 ]; then
  echo "wheel-smoke: the installed nodecast exited $code on the demo (expected 1: one error on purpose)" >&2
  exit 1
fi
echo "wheel-smoke: $name installs and runs"
