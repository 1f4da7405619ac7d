#!/usr/bin/env bash
# Installs the Debian packages of tools/debian-packages.txt (or of the list given as the
# argument, e.g. tools/debian-packages-arm64.txt) that are missing.
# Runs apt-get only when something is missing, so a prepared machine is not touched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=${1:-$here/debian-packages.txt}
mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
missing=()
native=$(dpkg --print-architecture)
# A name without ":arch" wants the machine's own architecture (or an "all" package); the
# query lists every architecture installed, e.g. amd64 and arm64 once the arm64 list is in.
installed() {
  local want="$native|all"
  [[ "$1" == *:* ]] && want="[^ ]*"
  dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$1" 2>/dev/null |
    grep -Eqx "installed ($want)"
}
for pkg in "${wanted[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
