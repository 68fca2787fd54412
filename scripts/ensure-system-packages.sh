#!/usr/bin/env bash
# The Debian packages the test suites use, installed when missing (`npm test` runs this
# first): Chromium's headless shell for the browser tests (chromium's Blink without the full
# browser's windowing, at little more than half the CPU), with its recommended packages (the
# fonts pages are drawn with), and PostgreSQL's server binaries, from which
# test/support/postgres.ts starts a throwaway cluster. When both are there it does nothing:
# no apt-get, no network.
set -euo pipefail

# What the tests look for: test/support/browser.ts and test/support/postgres.ts.
missing() {
  local need=() initdb found=""
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" ] || need+=(chromium-headless-shell)
  if [ -z "${TEST_DATABASE_URL:-}" ]; then
    for initdb in /usr/lib/postgresql/*/bin/initdb; do [ -x "$initdb" ] && found=1; done
    [ -n "$found" ] || command -v initdb >/dev/null || need+=(postgresql)
  fi
  echo "${need[*]}"
}

packages=$(missing)
[ -z "$packages" ] && exit 0

advice() {
  echo "The tests need Debian's $packages. $1 As root, run:" >&2
  echo "  apt-get update && apt-get install -y $packages" >&2
  echo "(or set CHROMIUM_PATH to a Chromium, TEST_DATABASE_URL to a PostgreSQL server the tests may use)." >&2
  exit 1
}

if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  advice "This user cannot install them: not root, and no sudo."
fi

echo "Installing the Debian packages the tests need: $packages" >&2
# Recommends explicitly: images often turn them off, and chromium-common's bring its fonts.
# shellcheck disable=SC2086 # $packages is a list of package names
if ! { "${sudo[@]}" apt-get update &&
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -o APT::Install-Recommends=true $packages; }; then
  advice "Installing them with apt-get failed (see above)."
fi
still=$(missing)
[ -z "$still" ] || advice "Still missing after apt-get: $still."
