# Sourced by the scripts that build kernels, make trees and boot guests:
# each says how long it took into SGCHAIN_TIMES, which make check sets
# (scripts/check-step.sh), so that its closing table shows what each step
# spent on kernel builds, trees and boots, and the next change that adds
# one sees its cost. Outside make check, nothing is written.
time_record() { # KIND SECONDS WHAT; KIND: build, tree or boot
	[ -z "${SGCHAIN_TIMES:-}" ] || printf '%s %s %s\n' "$1" "$2" "$3" >> "$SGCHAIN_TIMES"
}
