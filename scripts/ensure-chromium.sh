#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here): install it when
# missing. CHROMIUM_PATH points the tests at another Chromium instead.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ -x "$chromium" ]]; then exit 0; fi
echo "Installing Debian's Chromium for the browser tests…"
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq chromium >/dev/null
