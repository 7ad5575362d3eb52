# Sourced by kport/build.sh: which options of the config fragments did not
# reach a .config. Kconfig drops an option silently when its menu is off or
# the architecture has no such thing, and a build without it would test
# less than it says.

# fragment_options_missing CONFIG FRAGMENT...: prints each option line of
# the fragments that CONFIG does not have, the last fragment to name an
# option deciding. A later fragment may take an earlier one's option back
# ("# CONFIG_X is not set", where the architecture has no such thing):
# then it must be off, and is printed in that form if it is on.
fragment_options_missing() {
	local config=$1
	shift
	awk '
	FILENAME != cfg {
		if (/^CONFIG_[A-Z0-9_]+=/) {
			o = $0; sub(/=.*/, "", o); want[o] = $0
		} else if (/^# CONFIG_[A-Z0-9_]+ is not set$/) {
			want[$2] = ""
		}
		next
	}
	/^CONFIG_/ { have[$0] = 1; o = $0; sub(/=.*/, "", o); on[o] = 1 }
	END {
		for (o in want)
			if (want[o] == "" && (o in on))
				print "# " o " is not set"
			else if (want[o] != "" && !(want[o] in have))
				print want[o]
	}' cfg="$config" "$@" "$config"
}
