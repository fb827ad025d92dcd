#!/usr/bin/env bash
# The action's install step. With NODECAST_VERSION: download that release's binary and verify it
# against the checksum pinned in action/checksums.txt (never against a file from the same
# download). Without: build the action's own source with `cargo install --locked`.
set -euo pipefail

action_dir="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
dest="${NODECAST_INSTALL_DIR:-${RUNNER_TEMP:?RUNNER_TEMP is not set}/nodecast-bin}"
checksums="${NODECAST_CHECKSUMS:-$action_dir/action/checksums.txt}"
mkdir -p "$dest/bin"

if [ -z "${NODECAST_VERSION:-}" ]; then
  if [ -x "$dest/bin/nodecast" ]; then
    echo "nodecast: using the cached build in $dest"
  else
    cargo install --locked --path "$action_dir" --root "$dest" --bin nodecast
  fi
else
  version="${NODECAST_VERSION#v}"
  case "${RUNNER_OS:-Linux}/${RUNNER_ARCH:-X64}" in
    Linux/X64) target=x86_64-unknown-linux-gnu ;;
    Linux/ARM64) target=aarch64-unknown-linux-gnu ;;
    macOS/ARM64) target=aarch64-apple-darwin ;;
    macOS/X64) target=x86_64-apple-darwin ;;
    *)
      echo "::error title=nodecast::no nodecast release for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}; leave 'version' empty to build from source"
      exit 2
      ;;
  esac
  archive="nodecast-$version-$target.tar.gz"
  expected="$(awk -v f="$archive" '$2 == f { print $1 }' "$checksums")"
  if [ -z "$expected" ]; then
    echo "::error title=nodecast::no pinned checksum for $archive in action/checksums.txt; use a version listed there, or leave 'version' empty"
    exit 2
  fi
  base_url="${NODECAST_DOWNLOAD_BASE:-https://github.com/nodecast/nodecast/releases/download}"
  tmp="$(mktemp -d)"
  curl -fsSL --retry 3 -o "$tmp/$archive" "$base_url/v$version/$archive"
  actual="$(sha256sum "$tmp/$archive" | cut -d' ' -f1)"
  if [ "$actual" != "$expected" ]; then
    echo "::error title=nodecast::checksum mismatch for $archive: expected $expected, got $actual"
    exit 2
  fi
  tar -xzf "$tmp/$archive" -C "$tmp"
  install -m 0755 "$tmp/nodecast" "$dest/bin/nodecast"
  rm -rf "$tmp"
fi

if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dest/bin" >>"$GITHUB_PATH"
fi
"$dest/bin/nodecast" --version
