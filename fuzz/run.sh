#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) on the corpora of fuzz/seed.sh, with
# inputs up to 256 KiB (many documents per input) and a 2 GiB RSS limit (an out-of-memory is a
# failure), then prints the executions per target. Needs the nightly toolchain and cargo-fuzz.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(payload schedule kustomization ignition parse check)
[ -d corpus ] || ./seed.sh
mkdir -p logs
for t in "${targets[@]}"; do
  cargo +nightly fuzz run -O "$t" "corpus/$t" -- \
    -max_total_time="$secs" -max_len=262144 -rss_limit_mb=2048 -timeout=30 \
    -print_final_stats=1 > "logs/$t.log" 2>&1 || { echo "$t: FAILED (see fuzz/logs/$t.log)"; exit 1; }
  echo "$t: $(grep -o 'number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$') executions, peak RSS $(grep -o 'peak_rss_mb: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$') MB"
done
