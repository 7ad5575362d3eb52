#!/usr/bin/env bash
# kport/fragments.sh, as TAP, on small fragments and .configs: an option
# that did not reach .config is reported, the last fragment decides, and a
# later "is not set" takes an option back.
source "$(dirname "$0")/tap.sh"
source "$repo/kport/fragments.sh"
echo "1..6"

printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_N=128\n' > "$tmp/base"
printf '# CONFIG_B is not set\nCONFIG_N=64\n' > "$tmp/arch"
missing() { fragment_options_missing "$tmp/config" "$@"; }

printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_N=128\n' > "$tmp/config"
ok "every option there: nothing missing" [ -z "$(missing "$tmp/base")" ]

printf 'CONFIG_B=y\nCONFIG_N=128\n' > "$tmp/config"
ok "an option dropped by Kconfig is reported as the fragment says it" \
	[ "$(missing "$tmp/base")" = "CONFIG_A=y" ]

printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_N=64\n' > "$tmp/config"
ok "a later fragment's 'is not set' and value win" \
	[ -z "$(missing "$tmp/base" "$tmp/arch")" ]
ok "... and are required: the earlier fragment alone misses them" \
	[ "$(missing "$tmp/base" | sort)" = "$(printf 'CONFIG_B=y\nCONFIG_N=128')" ]

printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_N=64\n' > "$tmp/config"
ok "an option taken back but still on (selected) is reported" \
	[ "$(missing "$tmp/base" "$tmp/arch")" = "# CONFIG_B is not set" ]

printf 'CONFIG_A=y\nCONFIG_N=64\n' > "$tmp/config"
ok "an option taken back and simply absent is fine" \
	[ -z "$(missing "$tmp/base" "$tmp/arch")" ]
tap_done
