#!/usr/bin/env bash
# Findings per commit on the shape corpus (testdata/shapes): what a team sees on a repository
# shaped like the real ones. For each shape: the whole tree linted (`--no-base`), a commit that
# only touches comments and CI files, and the shape's `change/` commit when it has one.
#
#   tools/noise.sh [NODECAST_BINARY]      (default: target/release/nodecast, built if missing)
#
# Prints a Markdown table: findings and exit code per run. Needs git, jq and (for the shapes
# marked needs-kubectl) kubectl.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${1:-}
if [ -z "$BIN" ]; then
  cargo build --quiet --release -p nodecast --bin nodecast
  BIN=$ROOT/target/release/nodecast
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 NO_COLOR=1
git_() { git -c user.name=noise -c user.email=noise@example.com "$@"; }
count() { jq '.diagnostics | length'; }

echo "| shape | lint: findings | noise commit: findings (exit) | change commit: findings (exit) |"
echo "|---|---|---|---|"
totals=(0 0 0 0)
for shape in testdata/shapes/*/; do
  name=$(basename "$shape")
  if [ -f "$shape/needs-kubectl" ] && ! command -v kubectl >/dev/null; then
    echo "| $name | (needs kubectl) | | |"
    continue
  fi
  dir=$(mktemp -d)
  cp -r "$shape/repo/." "$dir/"
  (cd "$dir" && git_ init -q -b main && git_ add -A && git_ commit -qm base)
  lint=$(cd "$dir" && "$BIN" check --no-base --format json | count || true)
  find "$dir" -path "$dir/.git" -prune -o \( -name '*.yaml' -o -name '*.yml' \) -type f \
    -exec sh -c 'printf "# reviewed in the quarterly audit\n" >> "$1"' _ {} \;
  mkdir -p "$dir/.github/workflows"
  printf 'on: [push]\njobs:\n  echo:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo ${{ github.sha }}\n' \
    > "$dir/.github/workflows/noise.yaml"
  (cd "$dir" && git_ add -A && git_ commit -qm noise)
  set +e
  noise=$(cd "$dir" && "$BIN" check --base HEAD^ --head HEAD --format json | count)
  noise_exit=${PIPESTATUS[0]}
  (cd "$dir" && "$BIN" check --base HEAD^ --head HEAD --format json >/dev/null)
  noise_exit=$?
  change="–"
  if [ -d "$shape/change" ]; then
    cp -r "$shape/change/." "$dir/"
    (cd "$dir" && git_ add -A && git_ commit -qm change)
    n=$(cd "$dir" && "$BIN" check --base HEAD^ --head HEAD --format json | count)
    (cd "$dir" && "$BIN" check --base HEAD^ --head HEAD --format json >/dev/null)
    change="$n ($?)"
    totals[2]=$((totals[2] + n))
  fi
  set -e
  echo "| $name | $lint | $noise ($noise_exit) | $change |"
  totals[0]=$((totals[0] + lint))
  totals[1]=$((totals[1] + noise))
  [ "$noise_exit" -ne 0 ] && totals[3]=$((totals[3] + 1))
  rm -rf "$dir"
done
echo "| **total** | ${totals[0]} | ${totals[1]} (${totals[3]} noise commits fail) | ${totals[2]} |"
