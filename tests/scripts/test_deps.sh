#!/usr/bin/env bash
# scripts/deps.sh on a fake dpkg and apt-get (first in PATH): an install
# that an earlier one left interrupted is finished first, a failure to
# finish it names the command to run, and two installs at once wait for
# each other instead of failing on apt's lock.
source "$(dirname "$0")/../kport/tap.sh"
echo "1..9"

state=$tmp/state bin=$tmp/bin
mkdir -p "$state" "$bin"
: > "$state/installed"
# dpkg-query -W -f=FORMAT PKG: installed if listed.
cat > "$bin/dpkg-query" <<'F'
#!/bin/sh
pkg=$(eval echo \${$#})
grep -qx "$pkg" "$FAKE/installed" || exit 1
echo "install ok installed"
F
# apt-get [-o OPT]... update|install [-y -q ...] PKG...: refuses while
# dpkg is interrupted, as apt does; an install takes FAKE_SLOW seconds.
cat > "$bin/apt-get" <<'F'
#!/bin/sh
echo "apt-get $*" >> "$FAKE/calls"
while [ "$1" = -o ]; do shift 2; done
cmd=$1; shift
if [ -e "$FAKE/interrupted" ] && [ "$cmd" = install ]; then
	echo "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem."
	exit 100
fi
[ "$cmd" = install ] || exit 0
sleep "${FAKE_SLOW:-0}"
for a; do case "$a" in -*) ;; *) echo "$a" >> "$FAKE/installed" ;; esac; done
F
cat > "$bin/dpkg" <<'F'
#!/bin/sh
echo "dpkg $*" >> "$FAKE/calls"
[ ! -e "$FAKE/configure-fails" ] || exit 1
[ "$*" = "--configure -a" ] && rm -f "$FAKE/interrupted"
F
printf '#!/bin/sh\nexec "$@"\n' > "$bin/sudo"
chmod +x "$bin"/*
export FAKE=$state PATH="$bin:$PATH" DEPS_LOG=$tmp/deps.log DEPS_LOCK=$tmp/deps.lock
deps() { "$repo/scripts/deps.sh" "$@" 2>&1; }

echo a > "$state/installed"
out=$(deps a); rc=$?
ok "nothing missing: nothing run" eval '[ $rc -eq 0 ] && [ ! -e "$state/calls" ]'

touch "$state/interrupted"
out=$(deps b); rc=$?
ok "an interrupted dpkg is configured, then the install runs" \
	eval '[ $rc -eq 0 ] && grep -qx b "$state/installed"'
ok "... in that order" \
	eval '[ "$(grep -E "^(dpkg|apt-get .*install)" "$state/calls" | cut -c1-12)" = "$(printf "apt-get -o D\ndpkg --confi\napt-get -o D")" ]'
ok "... and says so" has "$out" "running 'dpkg --configure -a' first"
ok "apt-get waits for dpkg's lock" grep -q "DPkg::Lock::Timeout=" "$state/calls"

touch "$state/interrupted" "$state/configure-fails"
out=$(deps c); rc=$?
ok "a dpkg that cannot be configured fails the install" eval '[ $rc -ne 0 ]'
ok "... with one line naming the command to run" \
	has "$out" "run 'sudo dpkg --configure -a', then make again"
rm -f "$state/interrupted" "$state/configure-fails" "$state/calls"

# Two at once, the same package: the second waits, then finds it there.
FAKE_SLOW=2 deps d > "$tmp/first" & first=$!
sleep 0.5
out=$(deps d); rc=$?
wait "$first"; rc1=$?
ok "two installs at once both succeed" eval '[ $rc -eq 0 ] && [ $rc1 -eq 0 ]'
ok "... the second waits and installs nothing again" \
	eval '[ "$(grep -c " install " "$state/calls")" -eq 1 ] && has "$out" "waiting for another sgchain install"'
tap_done
