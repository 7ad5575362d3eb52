#!/usr/bin/env bash
# A kernel mutation never outlives its make mutate-kernel run, on a fake
# tree (a git repository shaped as kport/tree.sh leaves one): a run killed
# with its mutation planted leaves word, and the next kport/tree.sh puts
# the file back; SIGTERM puts it back at once; a running run's plant is
# left alone; a file the tree's HEAD does not hold is never planted; and
# a tree edit outside the copies is said on a build and refused under CI.
source "$(dirname "$0")/../kport/tap.sh"
echo "1..10"

ksrc=$tmp/linux
mkdir -p "$ksrc/drivers"
printf 'int cur = 1;\n' > "$ksrc/drivers/x.c"
git -C "$ksrc" init -q
git -C "$ksrc" add -A
git -C "$ksrc" -c user.name=t -c user.email=t@t commit -qm "Linux 6.1 from Debian's linux-source-6.1"
git -C "$ksrc" tag pristine
# The series as applied: tree.sh applies nothing and copies the core in.
(cd "$repo" && bash -c 'source kport/env.sh >/dev/null && series_hash') > "$ksrc/.git/sgchain-series"
git -C "$ksrc" rev-parse HEAD > "$ksrc/.git/sgchain-head"
listed=$ksrc/.git/sgchain-planted
export KSRC=$ksrc
unset CI
tree() { "$repo/kport/tree.sh" 2>&1; }
tree >/dev/null

# One mutation planted by mutate.py's own code (which makes SIGTERM and
# SIGHUP unwind while it is planted), judged by MODE: "kill"
# (SIGKILL, nothing runs after it), "wait" (sleeps in a child until
# killed), or "pass".
cat > "$tmp/drive_mutate.py" <<'F'
import os, signal, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "mutate"))
import mutate
mode, ksrc = sys.argv[2], sys.argv[3]
m = {"file": "tree:drivers/x.c", "find": "cur = 1", "replace": "cur = 2"}
judge = {
    "kill": lambda: os.kill(os.getpid(), signal.SIGKILL),
    "wait": lambda: (mutate.run_cmd(["sleep", "60"], ksrc, 120, os.devnull), ("survived", ""))[1],
    "pass": lambda: ("survived", ""),
}[mode]
print(*mutate.apply_and_run(m, [os.path.join(ksrc, "drivers/x.c")], [], judge, ksrc))
F
drive() { python3 "$tmp/drive_mutate.py" "$repo" "$@" "$ksrc"; }
planted() { grep -q 'cur = 2' "$ksrc/drivers/x.c"; }

drive kill >/dev/null 2>&1
ok "a run killed mid-mutation leaves the file planted and listed" \
	eval 'planted && grep -q " drivers/x.c$" "$listed"'
out=$(tree)
ok "the next kport/tree.sh puts it back and says so" \
	eval '! planted && [ ! -e "$listed" ] && has "$out" "put drivers/x.c back: a make mutate-kernel run"'

python3 "$tmp/drive_mutate.py" "$repo" wait "$ksrc" > "$tmp/wait.out" 2>&1 &
pid=$!
for _ in $(seq 50); do planted && [ -e "$listed" ] && break; sleep 0.1; done
out=$(tree)
ok "a plant of a run still going is left alone, and not called a tree edit" \
	eval 'planted && grep -Eq "^$pid [0-9]+ drivers/x.c$" "$listed" && ! has "$out" "put drivers/x.c back" && ! has "$out" note:'
# Stopped while it judges: once its child runs.
for _ in $(seq 50); do pgrep -P "$pid" -x sleep >/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"; rc=$?
ok "SIGTERM ends the run with the file back and unlisted, its child killed" \
	eval '[ $rc -eq $((128 + 15)) ] && ! planted && [ ! -e "$listed" ] && ! pgrep -x -f "sleep 60" >/dev/null'

out=$(drive pass)
ok "a judged mutation leaves nothing behind" \
	eval '[ "$out" = "survived " ] && ! planted && [ ! -e "$listed" ] && git -C "$ksrc" diff --quiet HEAD -- drivers/x.c'

printf 'int cur = 1; /* mine */\n' > "$ksrc/drivers/x.c"
out=$(drive pass)
ok "a file with changes HEAD lacks is not planted" \
	eval 'has "$out" "dirty " && grep -q mine "$ksrc/drivers/x.c" && [ ! -e "$listed" ]'

out=$(tree); rc=$?
ok "a build says which tree edits it builds" \
	eval '[ $rc -eq 0 ] && has "$out" "note: building changes of $ksrc that the series does not have: drivers/x.c"'
out=$(CI=true tree); rc=$?
ok "... and CI refuses them, with the command that drops them" \
	eval '[ $rc -ne 0 ] && has "$out" "CI tests the repository" && has "$out" "checkout -- drivers/x.c"'
git -C "$ksrc" checkout -q -- drivers/x.c
out=$(CI=true tree); rc=$?
ok "a tree of the series and the copies builds under CI" eval '[ $rc -eq 0 ] && ! has "$out" note:'

# A listed PID given since to another process (a later start time): the
# file goes back.
python3 "$tmp/drive_mutate.py" "$repo" wait "$ksrc" > /dev/null 2>&1 &
other=$!
for _ in $(seq 50); do pgrep -P "$other" -x sleep >/dev/null && break; sleep 0.1; done
echo "$other 1 drivers/x.c" > "$listed"
out=$(tree)
restored=$(! planted && echo yes)
alive=$(kill -0 "$other" 2>/dev/null && echo yes)
kill -TERM "$other"; wait "$other"
ok "a listed PID now of another run (its start time differs) does not keep a plant" \
	eval '[ "$alive" = yes ] && [ "$restored" = yes ] && has "$out" "put drivers/x.c back"'
tap_done
