#!/usr/bin/env bash
# Whole-process benchmark of nodecast on generated repositories (tools/repogen), with the floors
# (reading all blobs from Git; read + parse only) and Python peers on the same files.
#
#   tools/bench.sh [small] [medium] [large]     (default: all three)
#   tools/bench.sh kustomize-small kustomize-medium [kustomize-large]
#
# The kustomize-* sizes are fleets of Kustomize overlays (repogen --size kustomize-*): each pull
# request branch (pr/overlay-patch, pr/shared-base, pr/component) is checked against main, the
# overlay-patch one also in the single-overlay repository (repogen --single-overlay) for the
# ratio "one-overlay change in the fleet / the same change alone", and three staged files are
# checked twice (--staged: cold, then warm). Each check is measured cold (an empty render cache,
# `--cache-dir`, emptied before every run) and warm (the cache the cold runs left). KRUNS
# (default 3) runs per measure; a recorded run (stage times, peak RSS) precedes each.
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
SIZES=()
KSIZES=()
for size in "$@"; do
  case $size in
    small | medium | large) SIZES+=("$size") ;;
    kustomize-small | kustomize-medium | kustomize-large) KSIZES+=("$size") ;;
    *) echo "bench.sh: unknown size $size (small, medium, large, kustomize-small, kustomize-medium, kustomize-large)" >&2; exit 2 ;;
  esac
done
[ $# -eq 0 ] && SIZES=(small medium large)
KRUNS=${KRUNS:-3}
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

if [ "$PEERS" = 1 ] && [ ${#SIZES[@]} -gt 0 ]; then
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

cmeasure() { # name, cache folder (emptied before each run: cold), then the command
  local name=$1 cold=$2; shift 2
  hyperfine --style none --warmup 0 --runs "$RUNS" -i --prepare "rm -rf $(printf '%q' "$cold")" \
    --export-json "$BENCH_DIR/$name.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
  stats "$BENCH_DIR/$name.json"
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
echo "Machine: $(nproc) cores, $(uname -m); runs per measure: $RUNS (kustomize sizes: $KRUNS); seed $SEED; $(date -u +%F)" >"$RESULTS"
if [ ${#SIZES[@]} -gt 0 ]; then {
  echo
  echo "| size | clusters | files | documents | YAML MiB | check median wall (s) | user+sys (s) | peak RSS (MiB) | RSS / YAML bytes | documents/s | Git blob read floor (s) | read floor (s) | read+parse floor (s) | check / parse floor |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >>"$RESULTS"; fi
PEER_ROWS=()
STAGED_ROWS=()
STAGE_ROWS=()
WARM_ROWS=()

for size in ${SIZES[@]+"${SIZES[@]}"}; do
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
  # Cold: a whole check (an empty cache folder, emptied before each run: no record of HEAD^).
  # Warm: the same check again, with the records the cold runs left (scoped).
  cache=$BENCH_DIR/cache-$size
  read -r wall cpu < <(cmeasure "check-$size" "$cache" "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache")
  rm -rf "$cache"
  peak=$(rss "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache")
  read -r wwall wcpu < <(measure "check-$size-warm" "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache")
  wpeak=$(rss "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache")
  WARM_ROWS+=("| $size | $wall | $cpu | $peak | $wwall | $wcpu | $wpeak |")
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
  rm -rf "$cache"
  stages=$({ NODECAST_TIMINGS=1 "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache" 2>&1 >/dev/null || true; } |
    awk '/^nodecast timing:/ {printf "%s %.2f | ", $3, $4 / 1000}')
  STAGE_ROWS+=("| $size | whole (cold) | $stages")
  stages=$({ NODECAST_TIMINGS=1 "$NODECAST" check --base 'HEAD^' --format json --cache-dir "$cache" 2>&1 >/dev/null || true; } |
    awk '/^nodecast timing:/ {printf "%s %.2f | ", $3, $4 / 1000}')
  STAGE_ROWS+=("| $size | scoped (warm) | $stages")
  rm -rf "$cache"
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
    # Cold: an empty cache folder (the first check after a clone, or after the cache is deleted);
    # warm: the records the cold runs left (the hook run again on the same staged change, or
    # on the commit after one it checked).
    read -r sw scpu < <(cmeasure "staged-$size" "$cache" "$NODECAST" check --staged --format json --cache-dir "$cache")
    rm -rf "$cache"
    speak=$(rss "$NODECAST" check --staged --format json --cache-dir "$cache")
    read -r ww wcpu < <(measure "staged-$size-warm" "$NODECAST" check --staged --format json --cache-dir "$cache")
    wpeak=$(rss "$NODECAST" check --staged --format json --cache-dir "$cache")
    rm -rf "$cache"
    git reset -q --hard HEAD
    STAGED_ROWS+=("| $size | ${#victims[@]} | $sw | $scpu | $speak | $ww | $wcpu | $wpeak |")
  fi
  cd "$ROOT"
done

{
  if [ ${#STAGE_ROWS[@]} -gt 0 ]; then
    echo
    echo "Stage times of one run (seconds, wall; NODECAST_TIMINGS=1):"
    echo
    echo "| size | run | stages |"
    echo "|---|---|---|"
    printf '%s\n' "${STAGE_ROWS[@]}"
  fi
  if [ ${#WARM_ROWS[@]} -gt 0 ]; then
    echo
    echo "\`check --base HEAD^\`, cold (a whole check: an empty cache folder) and warm (scoped by the records the cold runs left):"
    echo
    echo "| size | cold median wall (s) | cold user+sys (s) | cold peak RSS (MiB) | warm median wall (s) | warm user+sys (s) | warm peak RSS (MiB) |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${WARM_ROWS[@]}"
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
    echo "Pre-commit case: \`nodecast check --staged --format json\` with a few staged files, cold (an empty cache folder) and warm (the records the cold runs left):"
    echo
    echo "| size | files staged | cold median wall (s) | cold user+sys (s) | cold peak RSS (MiB) | warm median wall (s) | warm user+sys (s) | warm peak RSS (MiB) |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${STAGED_ROWS[@]}"
  fi
} >>"$RESULTS"

# --- Kustomize-heavy fleets: every root is an overlay Kustomize renders ---

# One timed run: "wall user+sys peakMiB pools" (pools: forecast entries of the JSON report), and
# the stage times (NODECAST_TIMINGS=1) into $BENCH_DIR/stages.txt. Run in the repository.
timed() {
  { NODECAST_TIMINGS=1 /usr/bin/time -f '%e %U %S %M' -o "$BENCH_DIR/time.txt" "$@" \
    >"$BENCH_DIR/out.json" 2>"$BENCH_DIR/stderr.txt" || true; }
  awk '/^nodecast timing:/ {printf "%s %.2f | ", $3, $4 / 1000}' "$BENCH_DIR/stderr.txt" >"$BENCH_DIR/stages.txt"
  local pools
  pools=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["forecast"]))' "$BENCH_DIR/out.json" 2>/dev/null || echo '?')
  tail -n 1 "$BENCH_DIR/time.txt" | awk -v p="$pools" '{printf "%.2f %.2f %.0f %s\n", $1, $2 + $3, $4 / 1024, p}'
}

kmeasure() { # name, cache folder ("" = warm: keep it), then the command (run in the repository):
  # KRUNS runs, no warm-up; with a cache folder, each run starts from an empty one (cold).
  # Prints median wall, mean user+sys, fastest and slowest run (seconds)
  local name=${1//[^A-Za-z0-9_.-]/_} cold=$2; shift 2
  local prepare=()
  [ -n "$cold" ] && prepare=(--prepare "rm -rf $(printf '%q' "$cold")")
  hyperfine --style none --warmup 0 --runs "$KRUNS" -i ${prepare[@]+"${prepare[@]}"} \
    --export-json "$BENCH_DIR/$name.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
  python3 - "$BENCH_DIR/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f'{r["median"]:.4f} {r["user"] + r["system"]:.4f} {r["min"]:.4f} {r["max"]:.4f}')
PY
}

# Cold and warm rows of one check (run in the repository): the cold recorded run (stage times,
# peak RSS) on an empty render cache, KRUNS cold runs (the cache emptied before each), then the
# warm recorded run and KRUNS warm runs (the cache the cold runs left). Sets COLD_WALL, WARM_WALL.
kcase() { # size, label, overlays-changed, then the nodecast arguments
  local size=$1 label=$2 reach=$3; shift 3
  local cache=$BENCH_DIR/cache-$size
  rm -rf "$cache"
  local peak pools wall cpu lo hi
  read -r _ _ peak pools < <(timed "$NODECAST" "$@" --cache-dir "$cache")
  K_STAGES+=("| $size | $label, cold | $(cat "$BENCH_DIR/stages.txt")")
  read -r wall cpu lo hi < <(kmeasure "k-$size-$label-cold" "$cache" "$NODECAST" "$@" --cache-dir "$cache")
  COLD_WALL=$wall
  K_ROWS+=("$(printf '| %s | %s | %s | %s | cold | %.2f | %.2f–%.2f | %.2f | %s |' "$size" "$label" "$reach" "$pools" "$wall" "$lo" "$hi" "$cpu" "$peak")")
  read -r _ _ peak pools < <(timed "$NODECAST" "$@" --cache-dir "$cache")
  K_STAGES+=("| $size | $label, warm | $(cat "$BENCH_DIR/stages.txt")")
  read -r wall cpu lo hi < <(kmeasure "k-$size-$label-warm" "" "$NODECAST" "$@" --cache-dir "$cache")
  WARM_WALL=$wall
  K_ROWS+=("$(printf '| %s | %s | %s | %s | warm | %.2f | %.2f–%.2f | %.2f | %s |' "$size" "$label" "$reach" "$pools" "$wall" "$lo" "$hi" "$cpu" "$peak")")
  rm -rf "$cache"
}

K_ROWS=()
K_RATIOS=()
K_STAGES=()
K_STAGED=()
for size in ${KSIZES[@]+"${KSIZES[@]}"}; do
  repo=$BENCH_DIR/repo-$size-$SEED
  single=$BENCH_DIR/repo-$size-$SEED-single
  if [ ! -f "$repo.json" ] || [ ! -f "$single.json" ]; then
    echo "== generating $size (seed $SEED) and its single-overlay repository" >&2
    rm -rf "$repo" "$single"
    "$REPOGEN" --size "$size" --seed "$SEED" --out "$repo" >"$repo.json"
    "$REPOGEN" --size "$size" --seed "$SEED" --single-overlay --out "$single" >"$single.json"
  fi
  read -r overlays files docs < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["overlays"], s["files"], s["documents"])' "$repo.json")
  cd "$repo"
  git checkout -q main
  git reset -q --hard main
  echo "== $size: $overlays overlays, $files files, $docs documents" >&2
  for pr in "(a) overlay-patch" "(b) shared-base" "(c) component"; do
    label=${pr%% *}
    pr=${pr#* }
    reach=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reach"][sys.argv[2]])' "$repo.json" "pr/$pr")
    echo "== $size: pr/$pr" >&2
    kcase "$size" "$label pr/$pr" "$reach of $overlays" check --base main --head "pr/$pr" --format json
    if [ "$pr" = overlay-patch ]; then a_cold=$COLD_WALL; a_warm=$WARM_WALL; fi
  done
  echo "== $size: single-overlay repository, pr/overlay-patch" >&2
  cd "$single"
  git checkout -q main
  kcase "$size" "(a) pr/overlay-patch, single-overlay repository" "1 of 1" check --base main --head pr/overlay-patch --format json
  K_RATIOS+=("$(python3 -c 'import sys; a, b, c, d = map(float, sys.argv[2:]); print(f"| {sys.argv[1]} | {a / c:.1f}× | {b / d:.1f}× |")' "$size" "$a_cold" "$a_warm" "$COLD_WALL" "$WARM_WALL")")
  if [ "$STAGED" = 1 ]; then
    echo "== $size: pre-commit (--staged, 3 files changed): cold, then warm" >&2
    cd "$repo"
    # Three overlays' workers patches spread over the fleet (first, middle, last): replicas.
    mapfile -t victims < <(git ls-files -- 'clusters/hosted/*/nodepool-workers.yaml' |
      awk '{l[NR] = $0} END {print l[1]; print l[int((NR + 1) / 2)]; print l[NR]}')
    for f in "${victims[@]}"; do sed -i 's/^  replicas: \([0-9]*\)$/  replicas: 1\1/' "$f"; done
    git add -- "${victims[@]}"
    # Cold: an empty render cache, as on a first run. Warm: a run after one on the same staged
    # change, the way pre-commit runs when a commit is retried — and after one on main, as
    # when the hook runs on the first commit after a pull (the three overlays render again).
    cache=$BENCH_DIR/cache-$size
    rm -rf "$cache"
    read -r cw ccpu cpeak cpools < <(timed "$NODECAST" check --staged --format json --cache-dir "$cache")
    K_STAGES+=("| $size | --staged, cold | $(cat "$BENCH_DIR/stages.txt")")
    read -r ww wcpu wpeak _ < <(timed "$NODECAST" check --staged --format json --cache-dir "$cache")
    K_STAGES+=("| $size | --staged, warm | $(cat "$BENCH_DIR/stages.txt")")
    git reset -q --hard main
    rm -rf "$cache"
    K_STAGED+=("| $size | ${#victims[@]} | $cpools | $cw | $ccpu | $cpeak | $ww | $wcpu | $wpeak |")
  fi
  cd "$ROOT"
done

{
  if [ ${#K_ROWS[@]} -gt 0 ]; then
    echo
    echo "Kustomize-heavy fleets: \`nodecast check --base main --head BRANCH --format json\` (median wall, fastest and slowest run, mean user+sys of $KRUNS runs; peak RSS and pools of the recorded run). Cold: each run starts from an empty render cache (\`--cache-dir\`, emptied before each run); warm: the cache the cold runs left:"
    echo
    echo "| size | pull request | overlays it changes | pools forecast | render cache | median wall (s) | fastest–slowest (s) | user+sys (s) | peak RSS (MiB) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${K_ROWS[@]}"
    echo
    echo "(a) in the fleet / (a) in the single-overlay repository (median wall):"
    echo
    echo "| size | cold | warm |"
    echo "|---|---|---|"
    printf '%s\n' "${K_RATIOS[@]}"
  fi
  if [ ${#K_STAGED[@]} -gt 0 ]; then
    echo
    echo "Kustomize-heavy fleets, pre-commit case: \`nodecast check --staged --format json\` with three overlay patches staged, one run each:"
    echo
    echo "| size | files staged | pools forecast | cold wall (s) | cold user+sys (s) | cold peak RSS (MiB) | warm wall (s) | warm user+sys (s) | warm peak RSS (MiB) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${K_STAGED[@]}"
  fi
  if [ ${#K_STAGES[@]} -gt 0 ]; then
    echo
    echo "Kustomize-heavy fleets, stage times of the recorded run (seconds, wall; NODECAST_TIMINGS=1):"
    echo
    echo "| size | case | stages |"
    echo "|---|---|---|"
    printf '%s\n' "${K_STAGES[@]}"
  fi
} >>"$RESULTS"
cat "$RESULTS"
