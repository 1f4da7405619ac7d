#!/usr/bin/env bash
# tools/check-package.sh DEB [DBGSYM_DEB]: what an operator will do with the package, on
# this machine (root; the package must not be installed yet):
#   lintian (no error, no warning), dpkg -i, every program of the package answers
#   --version from /usr/bin and has its manual page, systemd-analyze verify on the
#   installed unit, the service left disabled, the configuration a conffile: an edit
#   survives an upgrade and a dpkg -r, and dpkg -P removes it. Leaves the package purged.
set -euo pipefail
deb=${1:?usage: check-package.sh DEB [DBGSYM_DEB]}
dbgsym=${2:-}
debs=("$deb")
[ -z "$dbgsym" ] || debs+=("$dbgsym")
conf=/etc/eboardd/eboardd.conf
step() { printf -- '--- %s\n' "$*"; }
fail() {
  echo "check-package.sh: FAIL: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (dpkg -i)"
if dpkg-query -W -f='${db:Status-Status}' eboardd 2>/dev/null | grep -qv not-installed; then
  fail "eboardd is installed on this machine already; dpkg -P eboardd first"
fi
work=$(mktemp -d)
cleanup() {
  dpkg -P eboardd-dbgsym eboardd >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

step "lintian"
lintian_log=$work/lintian.log
# --fail-on: a warning fails as an error does. Info tags are printed, not fatal.
status=0
lintian --fail-on error,warning --display-info "${debs[@]}" >"$lintian_log" 2>&1 || status=$?
sed -i '/running with root privileges/d' "$lintian_log"
cat "$lintian_log"
[ "$status" -eq 0 ] || fail "lintian reports errors or warnings (exit $status)"
echo "lintian: $(grep -c '^E:' "$lintian_log" || true) errors, $(grep -c '^W:' "$lintian_log" || true)" \
  "warnings, $(grep -c '^I:' "$lintian_log" || true) info"

step "dpkg -i"
dpkg -i "${debs[@]}" </dev/null
version=$(dpkg-query -W -f='${Version}' eboardd)
mapfile -t programs < <(dpkg -L eboardd | grep '^/usr/bin/' | sort)
[ ${#programs[@]} -ge 7 ] || fail "only ${#programs[@]} programs in /usr/bin: ${programs[*]}"
for program in "${programs[@]}"; do
  name=$(basename "$program")
  out=$("$program" --version </dev/null) || fail "$program --version exits $?"
  [ "$out" = "$name $version" ] || fail "$program --version says '$out', not '$name $version'"
  [ -f "/usr/share/man/man1/$name.1.gz" ] || fail "$name has no manual page"
done
echo "${#programs[@]} programs answer --version ($version) and have a manual page:" \
  "${programs[*]##*/}"

unit=$(dpkg -L eboardd | grep '/systemd/system/eboardd.service$')
systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit"
echo "systemd-analyze verify $unit: ok"
enabled=$(systemctl is-enabled eboardd.service 2>/dev/null || true)
[ "$enabled" = "disabled" ] || fail "the service is '$enabled' after install, not disabled"
echo "eboardd.service is $enabled after install"

step "conffile: an edit survives an upgrade and dpkg -r"
dpkg-query -W -f='${Conffiles}\n' eboardd | grep -q "^ $conf " || fail "$conf is not a conffile"
echo "board = site=dgt:auto,serial=12345  # edited by the operator" >>"$conf"
edited=$(md5sum <"$conf")
# The next version: the same package with a higher version number.
dpkg-deb -R "$deb" "$work/next"
sed -i "s/^Version: .*/Version: $version+1/" "$work/next/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/next" "$work/next.deb" >/dev/null
dpkg -i "$work/next.deb" </dev/null
[ "$(dpkg-query -W -f='${Version}' eboardd)" = "$version+1" ] || fail "the upgrade did not happen"
[ "$(md5sum <"$conf")" = "$edited" ] || fail "the upgrade changed the edited $conf"
echo "upgrade $version -> $version+1: the edited $conf is kept"
[ -z "$dbgsym" ] || dpkg -r eboardd-dbgsym >/dev/null
dpkg -r eboardd </dev/null
[ ! -e /usr/bin/eboardd ] || fail "dpkg -r left /usr/bin/eboardd"
[ "$(md5sum <"$conf")" = "$edited" ] || fail "dpkg -r changed or removed the edited $conf"
dpkg-query -W -f='${db:Status-Status}\n' eboardd | grep -qx config-files \
  || fail "after dpkg -r the package is not in state config-files"
echo "dpkg -r: programs gone, the edited $conf kept"
dpkg -P eboardd </dev/null
[ ! -e "$conf" ] || fail "dpkg -P left $conf"
echo "dpkg -P: $conf removed"
echo "package checks passed"
