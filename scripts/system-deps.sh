#!/usr/bin/env bash
# Installs the Debian packages pnp needs, only those missing.
#   scripts/system-deps.sh build   WeasyPrint's Pango and HarfBuzz libraries, and Ghostscript
#                                  (pnp preflight renders ink separations with it)
#   scripts/system-deps.sh test    the above plus poppler-utils and qpdf (independent PDF checks)
#                                  and chromium (the browser the pnp serve test drives)
set -euo pipefail
want=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 ghostscript)
if [ "${1:-build}" = "test" ]; then
  want+=(poppler-utils qpdf chromium)
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
