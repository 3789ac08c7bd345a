#!/usr/bin/env bash
# Rebuilds pnp/presets/icc/pnp-fogra39-tac240.icc, the CMYK profile pnp's print
# exports convert with and name as their output intent, from free data:
#   FOGRA39L.ti3  FOGRA39 characterisation data (ISO 12647-2 offset on coated paper),
#                 Debian package icc-profiles-free, zlib licence
#   colprof       Argyll CMS (Debian package argyll)
# Total ink is limited to 240 % (DriveThruCards' ceiling; factories accept more),
# black to 95 %. The shipped profile was made with Argyll 2.3.1; this takes ~20 s.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
for pkg in argyll icc-profiles-free; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="${missing:-} $pkg"
done
if [ -n "${missing:-}" ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp /usr/share/color/icc/FOGRA39L.ti3 "$work/"
(cd "$work" && colprof -qm -l 240 -L 95 \
  -D "pnp FOGRA39 coated, total ink 240%" \
  -C "Made by pnp from FOGRA39L.ti3 (Kai-Uwe Behrmann, zlib licence); zlib licence" \
  -O pnp-fogra39-tac240.icc FOGRA39L)
cp "$work/pnp-fogra39-tac240.icc" "$here/pnp/presets/icc/"
echo "wrote pnp/presets/icc/pnp-fogra39-tac240.icc"
