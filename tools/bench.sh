#!/usr/bin/env bash
# Whole-process benchmark of nodecast on generated repositories (tools/repogen), with the floors
# (reading all blobs from Git; read + parse only) and Python peers on the same files.
#
#   tools/bench.sh [small] [medium] [large]     (default: all three)
#
# Environment: RUNS (repetitions, default 5; PEER_RUNS for the peers, default 3), SEED (default 1), BENCH_DIR (where repositories,
# the peers' venv and results go; default target/bench), PEERS=0 to skip the Python peers,
# PEER_SIZES (default "small medium large") to run the peers on some sizes only (they take
# minutes on large), STAGED=0 to skip the pre-commit case. Needs hyperfine (apt-get install hyperfine) and GNU time
# (/usr/bin/time, package `time`); python3 with venv for the peers.
# Prints one Markdown table per measure and writes target/bench/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${RUNS:-5}
SEED=${SEED:-1}
BENCH_DIR=${BENCH_DIR:-$ROOT/target/bench}
PEERS=${PEERS:-1}
STAGED=${STAGED:-1}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(small medium large)
mkdir -p "$BENCH_DIR"
for tool in hyperfine /usr/bin/time python3 git; do
  command -v "$tool" >/dev/null || { echo "bench.sh: $tool is missing" >&2; exit 2; }
done

echo "== building (release)" >&2
cargo build --quiet --release -p nodecast --bin nodecast --example floors
cargo build --quiet --release -p repogen
NODECAST=$ROOT/target/release/nodecast
FLOORS=$ROOT/target/release/examples/floors
REPOGEN=$ROOT/target/release/repogen

if [ "$PEERS" = 1 ]; then
  VENV=$BENCH_DIR/peers-venv
  if [ ! -x "$VENV/bin/kubernetes-validate" ]; then
    echo "== installing the peers into a throwaway venv ($VENV)" >&2
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check yamllint check-jsonschema kubernetes-validate
  fi
  # The schema check-jsonschema applies to every file: a Kubernetes object (apiVersion, kind,
  # metadata.name). It parses single-document files only; multi-document files are reported as
  # parse failures, so it does less work than nodecast.
  printf '%s' '{"type":"object","required":["apiVersion","kind","metadata"],"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object","required":["name"]}}}' >"$BENCH_DIR/object.schema.json"
fi

# median wall, mean user+sys (seconds) of a hyperfine JSON export
stats() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f'{r["median"]:.4f} {r["user"] + r["system"]:.4f}')
PY
}

# peak RSS in MiB of one run
rss() {
  /usr/bin/time -f '%M' -o "$BENCH_DIR/rss.txt" "$@" >/dev/null 2>&1 || true
  tail -n 1 "$BENCH_DIR/rss.txt" | awk '{printf "%.0f", $1/1024}'
}

measure() { # name, then the command (run in the repository); PEER_RUNS for peers
  local name=$1; shift
  local runs=$RUNS warmup=1
  case $name in yamllint-*|check-jsonschema-*|kubernetes-validate-*) runs=${PEER_RUNS:-3} warmup=0 ;; esac
  hyperfine --style none --warmup "$warmup" --runs "$runs" -i --export-json "$BENCH_DIR/$name.json" \
    "$(printf '%q ' "$@")" >/dev/null 2>&1
  stats "$BENCH_DIR/$name.json"
}

RESULTS=$BENCH_DIR/results.md
{
  echo "Machine: $(nproc) cores, $(uname -m); runs per measure: $RUNS; seed $SEED; $(date -u +%F)"
  echo
  echo "| size | clusters | files | documents | YAML MiB | check median wall (s) | user+sys (s) | peak RSS (MiB) | RSS / YAML bytes | documents/s | Git blob read floor (s) | read floor (s) | read+parse floor (s) | check / parse floor |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$RESULTS"
PEER_ROWS=()
STAGED_ROWS=()
STAGE_ROWS=()

for size in "${SIZES[@]}"; do
  repo=$BENCH_DIR/repo-$size-$SEED
  if [ ! -f "$BENCH_DIR/repo-$size-$SEED.json" ]; then
    echo "== generating $size (seed $SEED)" >&2
    rm -rf "$repo"
    "$REPOGEN" --size "$size" --seed "$SEED" --out "$repo" >"$BENCH_DIR/repo-$size-$SEED.json"
  fi
  read -r clusters files docs bytes < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["clusters"], s["files"], s["documents"], s["bytes"])' "$BENCH_DIR/repo-$size-$SEED.json")
  cd "$repo"
  git reset -q --hard HEAD
  echo "== $size: $docs documents in $files files" >&2
  read -r wall cpu < <(measure "check-$size" "$NODECAST" check --base 'HEAD^' --format json)
  peak=$(rss "$NODECAST" check --base 'HEAD^' --format json)
  read -r gitw _ < <(measure "git-$size" sh -c 'git cat-file --batch-all-objects --batch >/dev/null')
  read -r readw _ < <(measure "read-$size" "$FLOORS" read --base 'HEAD^')
  read -r parsew _ < <(measure "parse-$size" "$FLOORS" parse --base 'HEAD^')
  python3 - "$size" "$clusters" "$files" "$docs" "$bytes" "$wall" "$cpu" "$peak" "$gitw" "$readw" "$parsew" >>"$RESULTS" <<'PY'
import sys
size, clusters, files, docs, bytes_, wall, cpu, peak, gitw, readw, parsew = sys.argv[1:]
docs, bytes_, wall, cpu, peak = int(docs), int(bytes_), float(wall), float(cpu), float(peak)
mib = bytes_ / 2**20
print(f"| {size} | {clusters} | {files} | {docs} | {mib:.1f} | {wall:.3f} | {cpu:.3f} | {peak:.0f} | {peak / mib:.1f}x | {docs / wall:,.0f} | {float(gitw):.3f} | {float(readw):.3f} | {float(parsew):.3f} | {wall / float(parsew):.2f}x |")
PY
  # Where the time goes: one run with NODECAST_TIMINGS (stage times on stderr).
  # (the check exits 1 when it reports an error; only its stderr matters here)
  stages=$({ NODECAST_TIMINGS=1 "$NODECAST" check --base 'HEAD^' --format json 2>&1 >/dev/null || true; } |
    awk '/^nodecast timing:/ {printf "%s %.2f | ", $3, $4 / 1000}')
  STAGE_ROWS+=("| $size | $stages")
  if [ "$PEERS" = 1 ] && [[ " ${PEER_SIZES:-small medium large} " == *" $size "* ]]; then
    echo "== $size: peers" >&2
    list=$BENCH_DIR/files-$size.txt
    git ls-files -z -- '*.yaml' '*.yml' >"$list"
    read -r ylw _ < <(measure "yamllint-$size" sh -c "xargs -0 '$VENV/bin/yamllint' -d '{rules: {}}' <'$list' >/dev/null")
    read -r cjw _ < <(measure "check-jsonschema-$size" sh -c "xargs -0 '$VENV/bin/check-jsonschema' --schemafile '$BENCH_DIR/object.schema.json' <'$list' >/dev/null 2>&1")
    read -r kvw _ < <(measure "kubernetes-validate-$size" sh -c "xargs -0 '$VENV/bin/kubernetes-validate' -k 1.31.0 <'$list' >/dev/null 2>&1")
    PEER_ROWS+=("$(python3 -c 'import sys; s,w,a,b,c=sys.argv[1],*map(float,sys.argv[2:]); print(f"| {s} | {w:.3f} | {a:.3f} ({a/w:.1f}x) | {b:.3f} ({b/w:.1f}x) | {c:.3f} ({c/w:.1f}x) | {min(a,b,c)/w:.1f}x |")' "$size" "$wall" "$ylw" "$cjw" "$kvw")")
  fi
  if [ "$STAGED" = 1 ]; then
    echo "== $size: pre-commit (--staged, 3 files changed)" >&2
    # Three files spread over the repository: a NodePool (replicas) and MachineConfigs (kernel args).
    mapfile -t victims < <(git ls-files -- 'clusters/*nodepool*.yaml' 'clusters/*/machineconfigs/*.yaml' |
      awk '{l[NR] = $0} END {print l[1]; print l[int(NR / 2)]; print l[NR]}')
    for f in "${victims[@]}"; do sed -i 's/replicas: \([0-9]*\)/replicas: 1\1/; s/audit=1/audit=0/' "$f"; done
    git add -- "${victims[@]}"
    read -r sw scpu < <(measure "staged-$size" "$NODECAST" check --staged --format json)
    speak=$(rss "$NODECAST" check --staged --format json)
    git reset -q --hard HEAD
    STAGED_ROWS+=("| $size | ${#victims[@]} | $sw | $scpu | $speak |")
  fi
  cd "$ROOT"
done

{
  if [ ${#STAGE_ROWS[@]} -gt 0 ]; then
    echo
    echo "Stage times of one run (seconds, wall; NODECAST_TIMINGS=1):"
    echo
    echo "| size | stages |"
    echo "|---|---|"
    printf '%s\n' "${STAGE_ROWS[@]}"
  fi
  if [ ${#PEER_ROWS[@]} -gt 0 ]; then
    echo
    echo "Peers on the same working tree (head only, one revision; each peer's time and its ratio to nodecast's check):"
    echo
    echo "| size | nodecast check (s) | yamllint, syntax only | check-jsonschema, object schema | kubernetes-validate, built-in kinds | fastest peer / nodecast |"
    echo "|---|---|---|---|---|---|"
    printf '%s\n' "${PEER_ROWS[@]}"
  fi
  if [ ${#STAGED_ROWS[@]} -gt 0 ]; then
    echo
    echo "Pre-commit case: \`nodecast check --staged --format json\` with a few staged files:"
    echo
    echo "| size | files staged | median wall (s) | user+sys (s) | peak RSS (MiB) |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${STAGED_ROWS[@]}"
  fi
} >>"$RESULTS"
cat "$RESULTS"
