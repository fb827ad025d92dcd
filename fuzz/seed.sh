#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from testdata/ (fuzz/corpus/<target>/, not committed):
# every YAML file, the data URLs, MachineConfigs, kustomizations and RRULEs found there, the
# before/after trees of the scenario suites for the whole check (each case built from its shared
# bases with tools/fixture.sh, as the tests build it), and a few large multi-document inputs (run
# with -max_len high enough to hold them, see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
c=fuzz/corpus
rm -rf "$c"
mkdir -p "$c"/{parse,payload,ignition,kustomization,schedule,check}
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  cp "$f" "$c/parse/$n.yaml"
  if grep -q "kind: MachineConfig" "$f"; then cp "$f" "$c/ignition/$n.yaml"; fi
  case "$f" in */kustomization.yaml|*/kustomization.yml|*/Kustomization) cp "$f" "$c/kustomization/$n.yaml" ;; esac
done < <(find testdata tools/schemagen/crds -type f \( -name '*.yaml' -o -name '*.yml' -o -name 'Kustomization' \) -size -256k -print0 | sort -z)
# Data URLs, with mode bytes 0 (plain) and 1 (gzip).
i=0
# (testdata/rules/I002 holds 30 MiB gzip bombs on purpose: too slow to be a seed.)
grep -rhoE "data:[^\" ]*" testdata --exclude-dir=I002 | sort -u | head -2000 | while IFS= read -r url; do
  i=$((i + 1))
  { printf '\000'; printf '%s' "$url"; } > "$c/payload/p$i"
  { printf '\001'; printf '%s' "$url"; } > "$c/payload/g$i"
done
# RRULEs from the tests and testdata.
i=0
grep -rhoE "FREQ=[A-Za-z0-9=;,+:-]*" testdata tests src | sort -u | while IFS= read -r r; do
  i=$((i + 1))
  printf '%s' "$r" > "$c/schedule/r$i"
done
# The scenario cases, built in full (their `_base/` folders are shared bases, not cases).
built=$(mktemp -d)
trap 'rm -rf "$built"' EXIT
for dir in testdata/mco/* testdata/hcp/* testdata/rules/*; do
  case "${dir##*/}" in _*) continue ;; esac
  if [ -d "$dir" ]; then tools/fixture.sh "$dir" "$built/$dir"; fi
done
# Whole check: each scenario's before and after files, interleaved (base, head, base, head…).
i=0
for case in "$built"/testdata/mco/* "$built"/testdata/hcp/* "$built"/testdata/rules/*; do
  [ -d "$case/after" ] || continue
  i=$((i + 1))
  out="$c/check/c$i"
  : > "$out"
  mapfile -t before < <(find "$case/before" -type f -name '*.yaml' 2>/dev/null | sort)
  mapfile -t after < <(find "$case/after" -type f -name '*.yaml' | sort)
  max=${#after[@]}; [ ${#before[@]} -gt "$max" ] && max=${#before[@]}
  first=1
  for ((k = 0; k < max && k < 8; k++)); do
    for f in "${before[$k]:-}" "${after[$k]:-}"; do
      [ $first -eq 1 ] || printf '\n===\n' >> "$out"
      first=0
      [ -n "$f" ] && cat "$f" >> "$out"
    done
  done
done
# Large inputs: many documents in one file.
for target in parse check ignition; do
  cat "$built"/testdata/mco/*/after/*.yaml | head -c 200000 > "$c/$target/large-many-documents"
done
python3 - "$c" <<'PY'
import sys
c = sys.argv[1]
doc = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n---\n"
open(f"{c}/parse/alias-documents", "w").write(doc * 400)
PY
for t in "$c"/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
