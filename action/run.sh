#!/usr/bin/env bash
# The action's run step: nodecast with GitHub annotations, step summary and outputs; the step
# fails when nodecast exits non-zero (findings at or above fail-on: 1; tool failure: 2).
# Inputs arrive as NODECAST_* environment variables, never spliced into this script.
set -euo pipefail

bin="${NODECAST_BIN:-nodecast}"
# The run's time, fixed once: the forecast's "when" and the step summary's rollout timeline are
# reckoned from it (without --now, nodecast draws no timeline, so reports stay reproducible).
args=(check "${NODECAST_PATH:-.}" --format github --now "${NODECAST_NOW:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}")
if [ -n "${NODECAST_BASE:-}" ]; then
  args+=(--base "$NODECAST_BASE")
fi
if [ -n "${NODECAST_FAIL_ON:-}" ]; then
  args+=(--fail-on "$NODECAST_FAIL_ON")
fi
if [ -n "${NODECAST_SARIF_FILE:-}" ]; then
  args+=(--output-sarif "$NODECAST_SARIF_FILE")
fi
if [ "${NODECAST_ACK_ALL:-false}" = "true" ]; then
  args+=(--ack all)
fi
if [ -n "${NODECAST_ARGS:-}" ]; then
  # Split on whitespace only: no globbing, no evaluation.
  set -f
  read -r -a extra <<<"$NODECAST_ARGS"
  set +f
  args+=("${extra[@]}")
fi

set +e
"$bin" "${args[@]}"
code=$?
set -e

if [ -n "${NODECAST_SARIF_FILE:-}" ] && [ -n "${GITHUB_OUTPUT:-}" ] && [ -f "$NODECAST_SARIF_FILE" ]; then
  echo "sarif-file=$NODECAST_SARIF_FILE" >>"$GITHUB_OUTPUT"
fi
if [ "$code" -eq 2 ]; then
  echo "::error title=nodecast::nodecast could not run the check (exit 2); see the log above"
fi
exit "$code"
