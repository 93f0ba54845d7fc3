#!/usr/bin/env bash
# What the tests drive besides Node, from Debian (nothing here may download at install time), installed when
# missing: Chromium for the browser tests (Playwright cannot download its own browser here; CHROMIUM_PATH points the
# tests at another), poppler-utils (pdfsig, pdftotext, pdftoppm, pdfinfo, pdffonts) and qpdf for the sealed PDFs'
# checks, and openssl for the test CA, P12 files and the local RFC 3161 timestamp authority.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[[ -x "$chromium" ]] || missing+=(chromium)
command -v pdfsig >/dev/null 2>&1 || missing+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi
echo "Installing Debian's ${missing[*]} for the tests…"
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
