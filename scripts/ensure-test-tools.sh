#!/usr/bin/env bash
# What the tests drive besides Node, from Debian (nothing here may download at install time), installed when
# missing: Chromium for the browser tests (Playwright cannot download its own browser here; CHROMIUM_PATH points the
# tests at another), poppler-utils (pdfsig, pdftotext, pdftoppm, pdfinfo, pdffonts) and qpdf for the sealed PDFs'
# checks, and openssl for the test CA, P12 files and the local RFC 3161 timestamp authority. For the other two engines
# (pnpm test:firefox, pnpm test:webkit): Firefox ESR (driven over WebDriver BiDi), WebKitGTK's WebDriver
# (webkit2gtk-driver, which brings libwebkit2gtk-4.1-0 and its MiniBrowser) and Xvfb for MiniBrowser's window. For
# the container image's check (pnpm test:image): podman, runc, and mmdebstrap to make its base from Debian's packages.
# For the PKCS#11 sealing's tests: SoftHSM2 (a software token, softhsm2-util) and OpenSC's pkcs11-tool.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[[ -x "$chromium" ]] || missing+=(chromium)
command -v pdfsig >/dev/null 2>&1 || missing+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ]] || missing+=(firefox-esr)
[[ -x "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}" ]] || missing+=(webkit2gtk-driver)
[[ -x "${MINIBROWSER_PATH:-/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser}" ]] || missing+=(libwebkit2gtk-4.1-0)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
command -v softhsm2-util >/dev/null 2>&1 || missing+=(softhsm2)
command -v pkcs11-tool >/dev/null 2>&1 || missing+=(opensc)
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi
echo "Installing Debian's ${missing[*]} for the tests…"
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
