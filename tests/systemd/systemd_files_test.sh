#!/usr/bin/env bash
# The files under systemd/ as systemd and udev read them.
#   udev:    61-eboardd.rules sorts after Debian's 60-serial.rules (which sets the
#            ID_SERIAL_SHORT it names links by) and has the keys the README promises.
#            Where udevadm runs (package udev, root for a private mount namespace),
#            `udevadm test` reads it from /etc/udev/rules.d in a namespace of its own:
#            after 60-serial.rules, and without a complaint about any line.
#   dropin:  the unit with systemd/eboardd.service.d/internet.conf verifies, and the drop-in
#            widens the address allow list and nothing else.
# Usage: systemd_files_test.sh udev|dropin SOURCE_DIR
set -euo pipefail
what=$1
src=$2
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

check_udev() {
  local rule=$src/systemd/61-eboardd.rules
  [ -f "$rule" ] || fail "$rule is missing"
  local first
  first=$(printf '%s\n' 60-serial.rules "$(basename "$rule")" | LC_ALL=C sort | head -1)
  [ "$first" = 60-serial.rules ] || fail "$(basename "$rule") sorts before 60-serial.rules"
  local body
  body=$(sed -e 's/#.*//' "$rule" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
  for key in 'ATTRS{idVendor}=="04d8"' 'ATTRS{idProduct}=="000a"' 'ENV{ID_MM_DEVICE_IGNORE}="1"' \
    'GROUP="dialout"' 'ENV{ID_SERIAL_SHORT}=="?*"' 'SYMLINK+="eboard/dgt-$env{ID_SERIAL_SHORT}"' \
    'KERNEL=="rfcomm[0-9]*"'; do
    grep -qF "$key" <<<"$body" || fail "the rule has no $key"
  done
  echo "rule order and keys: ok"
  if ! command -v udevadm >/dev/null || [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null \
    || [ ! -d /sys/class/tty/tty0 ]; then
    echo "udevadm test: not possible here (needs udev, root and /sys); order and keys checked"
    return 0
  fi
  local log
  log=$(mktemp)
  # The rule goes into a tmpfs over /etc/udev/rules.d seen only by this command.
  local status=0
  unshare --mount sh -c "mount -t tmpfs eboard-test /etc/udev/rules.d \
      && cp '$rule' /etc/udev/rules.d/ && udevadm test --action=add /sys/class/tty/tty0" \
    >"$log" 2>&1 || status=$?
  if ! grep -q '^Reading rules file: /etc/udev/rules.d/61-eboardd.rules$' "$log"; then
    # No private mount namespace or no udevadm test here (a container may refuse both).
    echo "udevadm test: cannot run here ($(tail -1 "$log")); order and keys checked"
    rm -f "$log"
    return 0
  fi
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    fail "udevadm test failed (exit $status)"
  fi
  local order
  order=$(sed -n 's/^Reading rules file: .*\/\(6[01]-[a-z]*\.rules\)$/\1/p' "$log" \
    | grep -E '^(60-serial|61-eboardd)\.rules$' | tr '\n' ' ')
  if [ "$order" != "60-serial.rules 61-eboardd.rules " ]; then
    grep -q 60-serial.rules "$log" || {
      echo "udevadm test: Debian's 60-serial.rules is not installed; order checked by name"
      rm -f "$log"
      return 0
    }
    cat "$log" >&2
    fail "udev reads the rules in the order '$order'"
  fi
  if grep -E '61-eboardd\.rules:[0-9]+' "$log" >&2; then
    fail "udev complains about 61-eboardd.rules"
  fi
  rm -f "$log"
  echo "udevadm test: 60-serial.rules, then 61-eboardd.rules, no complaint: ok"
}

check_dropin() {
  local dropin=$src/systemd/eboardd.service.d/internet.conf
  [ -f "$dropin" ] || fail "$dropin is missing"
  local keys
  keys=$(sed -e 's/#.*//' -e '/^\s*$/d' "$dropin")
  [ "$keys" = $'[Service]\nIPAddressAllow=any' ] || fail "the drop-in sets more than IPAddressAllow: $keys"
  command -v systemd-analyze >/dev/null || {
    echo "systemd-analyze is not installed (package systemd): keys checked only"
    return 0
  }
  local dir
  dir=$(mktemp -d)
  # verify wants ExecStart= to exist; the drop-in is what is checked here, not the program.
  sed "s|/usr/bin/eboardd|/bin/true|" "$src/systemd/eboardd.service" >"$dir/eboardd.service"
  mkdir "$dir/eboardd.service.d"
  cp "$dropin" "$dir/eboardd.service.d/"
  # systemd reads drop-ins from beside the unit; a key it does not know is only a warning
  # on the output, so any line naming the drop-in fails the test.
  local log
  log=$(SYSTEMD_UNIT_PATH=$dir: systemd-analyze verify "$dir/eboardd.service" 2>&1) \
    || fail "systemd-analyze verify rejects the unit with the drop-in: $log"
  rm -rf "$dir"
  if grep -F internet.conf <<<"$log" >&2; then
    fail "systemd-analyze complains about the drop-in"
  fi
  echo "unit with the internet drop-in verifies: ok"
}

case "$what" in
  udev) check_udev ;;
  dropin) check_dropin ;;
  *) fail "unknown check '$what'" ;;
esac
