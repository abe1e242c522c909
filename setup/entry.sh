#!/bin/sh
# gatehouse set-up for @@TITLE@@. Downloads the set-up script from the gatehouse docs host and
# runs it with Node.js 18+ or Deno:
#
#   curl -fsSL @@DOCS_URL@@/setup/@@CLIENT@@.sh | sh -s -- [options]      (--help lists them)
#
set -eu

gatehouse_setup() {
  script_url=@@SCRIPT_URL@@
  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t gatehouse)
  trap 'rm -rf "$tmp"' EXIT INT TERM
  file="$tmp/gatehouse-setup.mjs"
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL "$script_url" -o "$file"
  elif command -v wget >/dev/null 2>&1; then
    wget -qO "$file" "$script_url"
  else
    echo "gatehouse-setup: needs curl or wget to download $script_url" >&2
    return 1
  fi
  # When this script arrives through a pipe, standard input is the script itself: the key
  # prompt reads the terminal instead (or nothing, without one).
  if [ -t 0 ]; then
    input=/dev/stdin
  elif (exec </dev/tty) 2>/dev/null; then
    input=/dev/tty
  else
    input=/dev/null
  fi
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -ge 18 ] 2>/dev/null; then
    node "$file" @@CLIENT@@ "$@" <"$input"
  elif command -v deno >/dev/null 2>&1; then
    deno run --allow-read --allow-write --allow-env --allow-net --allow-sys \
      "$file" @@CLIENT@@ "$@" <"$input"
  else
    echo "gatehouse-setup: needs Node.js 18 or newer, or Deno: install one, then run again." >&2
    return 1
  fi
}

gatehouse_setup "$@"
