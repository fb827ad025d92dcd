#!/usr/bin/env bash
# Materialises a scenario fixture (a case of testdata/hcp, mco, rules or real, or a whole suite)
# into a folder, to run it by hand or feed it to other tools (fuzz/seed.sh). Same rules as
# tests/common/fixture.rs (see CONTRIBUTING.md, "Scenario fixtures"): a folder is built from the
# folders listed in its `_from` file (paths relative to it, in order), then its own files and
# subfolders on top, minus the paths listed in its `_remove` file; `_from` and `_remove` are not
# copied.
#
#   tools/fixture.sh testdata/hcp/hc-release /tmp/hc-release
#   (cd /tmp/hc-release && nodecast check --base-dir before after --no-schema)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 CASE_FOLDER DEST_FOLDER" >&2
  exit 2
fi

fail() {
  echo "fixture.sh: $*" >&2
  exit 1
}

# build FOLDER DEST DEPTH: builds FOLDER into DEST, in place.
build() {
  local src=$1 dest=$2 depth=$3 line entry name
  # No fixture nests this deep: a `_from` that loops back to a folder being built.
  [ "$depth" -lt 64 ] || fail "$src: \`_from\` loops back to a folder being built"
  mkdir -p "$dest"
  if [ -f "$src/_from" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      line=${line#"${line%%[![:space:]]*}"}
      line=${line%"${line##*[![:space:]]}"}
      case "$line" in '' | '#'*) continue ;; esac
      [ -d "$src/$line" ] || fail "$src: \`_from\` names \`$line\`, which is not a folder"
      build "$src/$line" "$dest" $((depth + 1))
    done <"$src/_from"
  fi
  for entry in "$src"/* "$src"/.[!.]*; do
    [ -e "$entry" ] || continue
    name=${entry##*/}
    if [ -d "$entry" ]; then
      build "$entry" "$dest/$name" $((depth + 1))
    elif [ "$name" != _from ] && [ "$name" != _remove ]; then
      cp "$entry" "$dest/$name"
    fi
  done
  if [ -f "$src/_remove" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      line=${line#"${line%%[![:space:]]*}"}
      line=${line%"${line##*[![:space:]]}"}
      case "$line" in '' | '#'*) continue ;; esac
      case "/$line/" in */../* | //*) fail "$src: \`_remove\` names \`$line\`, outside the folder" ;; esac
      [ -e "$dest/$line" ] || fail "$src: \`_remove\` names \`$line\`, which the folder does not have"
      rm -r "${dest:?}/$line"
    done <"$src/_remove"
  fi
}

build "$1" "$2" 0
