#!/usr/bin/env bash
# The action's build-cache key: `github.action_ref` is empty inside composite actions, so the key
# is a digest of the action's own sources (what `cargo install` would build), stable per release
# and different whenever the code changes.
set -euo pipefail

action_dir="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
cd "$action_dir"
sources=()
for p in Cargo.toml Cargo.lock build.rs src crates rules schemas; do
  [ -e "$p" ] && sources+=("$p")
done
digest="$(find "${sources[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
key="nodecast-${RUNNER_OS:-os}-${RUNNER_ARCH:-arch}-${digest}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "key=$key" >>"$GITHUB_OUTPUT"
fi
echo "$key"
