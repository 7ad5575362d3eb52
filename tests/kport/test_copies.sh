#!/usr/bin/env bash
# make kport-check's copy checks, as TAP, without a kernel: both committed
# series leave every file they add as the repository holds it, and a bug
# planted in a scratch copy of a series (one character of a suite, a line
# of a file that several patches grow, a file with no home in the
# repository) fails the check, naming the file.
source "$(dirname "$0")/tap.sh"
echo "1..20"
copies() { "$repo/kport/check.sh" --copies "$1" 2>&1; }

scratch() { # SERIES: a scratch copy of it; prints its directory
	local dir
	dir=$(mktemp -d "$tmp/series.XXXX")
	cp "$repo/$1"/*.patch "$dir/"
	echo "$dir"
}

# A scratch copy of SERIES with the Nth added line of PATH's diff in
# PATCH_GLOB given one more character; prints the scratch directory.
plant() { # SERIES PATCH_GLOB PATH N
	local dir patch
	dir=$(scratch "$1")
	patch=$(ls "$dir"/$2)
	awk -v path="$3" -v n="$4" '
		/^diff --git / { in_path = ($3 == "a/" path) }
		in_path && /^[+]/ && !/^[+][+][+] b\// && ++added == n { $0 = $0 "x" }
		{ print }' "$patch" > "$patch.new" && mv "$patch.new" "$patch"
	cmp -s "$patch" "$repo/$1/$(basename "$patch")" && return 1
	echo "$dir"
}

for series in kport/series-6.1 kport/series-6.12; do
	out=$(copies "$repo/$series"); rc=$?
	ok "$series leaves every file it adds as the repository holds it" \
		eval '[ $rc -eq 0 ] && has "$out" "kport-check: " && ! has "$out" FAIL'
done

# One character in a suite that one patch adds.
dir=$(plant kport/series-6.1 '*-lib-add-the-sg_chain_pages-KUnit-suite.patch' lib/sg_chain/sg_chain_pages_kunit.c 40)
out=$(copies "$dir"); rc=$?
ok "a character planted in 6.1's sg_chain_pages_kunit.c fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL  series carries kport/lib/sg_chain/sg_chain_pages_kunit.c"'
ok "... and only it" eval '[ "$(grep -c FAIL <<< "$out")" -eq 1 ]'

dir=$(plant kport/series-6.12 '*-lib-add-sg_chain-KUnit-suites.patch' lib/sg_chain/sg_chain_kunit.c 500)
out=$(copies "$dir"); rc=$?
ok "a character planted in 6.12's sg_chain_kunit.c fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL  series carries kport/lib/sg_chain/sg_chain_kunit.c"'

# The compat header: the one file where the kernels differ.
dir=$(plant kport/series-6.12 '*-lib-add-the-sg_chain_dma-KUnit-suite.patch' lib/sg_chain/sg_chain_compat.h 20)
out=$(copies "$dir"); rc=$?
ok "a character planted in 6.12's sg_chain_compat.h fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL  series carries kport/lib/sg_chain/sg_chain_compat.h"'

# The Makefile grows in three patches: a change in the last one shows in
# the file; one in the first breaks the later patches' context.
dir=$(plant kport/series-6.1 '*-lib-add-the-sg_chain_pages-KUnit-suite.patch' lib/sg_chain/Makefile 1)
out=$(copies "$dir"); rc=$?
ok "a character planted in the last patch that grows the Makefile fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL  series carries kport/lib/sg_chain/Makefile"'
dir=$(plant kport/series-6.1 '*-lib-add-sg_chain-KUnit-suites.patch' lib/sg_chain/Makefile 5)
out=$(copies "$dir"); rc=$?
ok "a character planted in the first patch that grows the Makefile fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL  series carries kport/lib/sg_chain/Makefile" &&
	      has "$out" "-lib-add-the-sg_chain_dma-KUnit-suite.patch: line 5 is not"'

# A file the series adds that the repository does not hold.
dir=$(scratch kport/series-6.1)
cat >> "$(ls "$dir"/*-lib-add-the-sg_chain_pages-KUnit-suite.patch)" <<'EOF'
diff --git a/lib/sg_chain/stray.h b/lib/sg_chain/stray.h
new file mode 100644
index 000000000..111111111
--- /dev/null
+++ b/lib/sg_chain/stray.h
@@ -0,0 +1 @@
+/* only in the patch */
EOF
out=$(copies "$dir"); rc=$?
ok "a file the series adds without a home in the repository fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "no home in the repository" && has "$out" "lib/sg_chain/stray.h"'

# A rename of a copied file would take it out of every check.
dir=$(scratch kport/series-6.1)
cat >> "$(ls "$dir"/*-lib-add-the-sg_chain_pages-KUnit-suite.patch)" <<'EOF'
diff --git a/lib/sg_chain/sg_chain_compat.h b/lib/sg_chain/evil.h
similarity index 97%
rename from lib/sg_chain/sg_chain_compat.h
rename to lib/sg_chain/evil.h
EOF
out=$(copies "$dir"); rc=$?
ok "a series that renames a file it adds fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "rename from lib/sg_chain/sg_chain_compat.h"'

# A path git quotes or spaces cannot be read, so it is refused, not skipped.
dir=$(scratch kport/series-6.1)
cat >> "$(ls "$dir"/*-lib-add-the-sg_chain_pages-KUnit-suite.patch)" <<'EOF'
diff --git a/lib/sg_chain/sg_chain_compat.h b/lib/sg_chain/evil name.h
similarity index 100%
rename from lib/sg_chain/sg_chain_compat.h
rename to lib/sg_chain/evil name.h
EOF
out=$(copies "$dir"); rc=$?
ok "a rename to a path with a space fails too" \
	eval '[ $rc -ne 0 ] && has "$out" "cannot read '"'"'diff --git a/lib/sg_chain/sg_chain_compat.h b/lib/sg_chain/evil name.h'"'"'"'

dir=$(scratch kport/series-6.1)
cat >> "$(ls "$dir"/*-lib-add-the-sg_chain_pages-KUnit-suite.patch)" <<'EOF'
diff --git a/lib/sg_chain/Makefile b/lib/sg_chain/Makefile
index 2e9a49316..0e8a5b1c3 100644
GIT binary patch
literal 10
RcmZ?wbaHeJiP+-t000q#0Ne^c

EOF
out=$(copies "$dir"); rc=$?
ok "a binary patch of a copied file fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "lib/sg_chain/Makefile" && has "$out" "GIT binary patch"'

# Folded into too early a patch: the header a suite includes comes later.
dir=$(scratch kport/series-6.1)
sed -i 's|^+#include "sg_chain_cases.h"$|+#include "sg_chain_compat.h"|' "$dir"/*-lib-add-sg_chain-KUnit-suites.patch
out=$(copies "$dir"); rc=$?
ok "an include of a header that a later patch adds fails, naming both" \
	eval '[ $rc -ne 0 ] && has "$out" "sg_chain_kunit.c includes lib/sg_chain/sg_chain_compat.h, which a later patch adds"'

# The series' Kconfig is reached from lib/Kconfig.debug, or from nowhere.
dir=$(scratch kport/series-6.1)
sed -i 's|^+source "lib/sg_chain/Kconfig"$|+|' "$dir"/*-lib-add-sg_chain-KUnit-suites.patch
out=$(copies "$dir"); rc=$?
ok "a Kconfig that no line of the series sources fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "lib/sg_chain/Kconfig: no line the series adds sources it"'

# series_file.py on its own: what a series leaves, and what it refuses.
sf() { python3 "$repo/kport/series_file.py" "$@" 2>&1; }
out=$(sf lib/sg_chain/Makefile "$repo"/kport/series-6.1/*-lib-add-{sg_chain-KUnit-suites,the-sg_chain_dma-KUnit-suite,the-sg_chain_pages-KUnit-suite}.patch)
ok "series_file.py follows a file through the three patches that grow it" \
	[ "$out" = "$(cat "$repo/kport/lib/sg_chain/Makefile")" ]
out=$(sf lib/sg_chain/Makefile "$repo"/kport/series-6.1/*-lib-add-{the-sg_chain_dma-KUnit-suite,the-sg_chain_pages-KUnit-suite}.patch); rc=$?
ok "series_file.py refuses a file changed before any patch adds it" \
	eval '[ $rc -ne 0 ] && has "$out" "changes the file before any patch adds it"'
out=$(sf lib/Kconfig.debug "$repo"/kport/series-6.1/0*.patch); rc=$?
ok "series_file.py refuses a file the series does not add" \
	eval '[ $rc -ne 0 ] && has "$out" "lib/Kconfig.debug"'

# Hand-made patches where a lax reading would differ from git's.
cat > "$tmp/add.patch" <<'EOF'
diff --git a/f b/f
new file mode 100644
--- /dev/null
+++ b/f
@@ -0,0 +1,5 @@
+1
+2
+3
+4
+5
EOF
cat > "$tmp/mid.patch" <<'EOF'
diff --git a/f b/f
--- a/f
+++ b/f
@@ -2,2 +2,3 @@
 2
 3
+x
EOF
cat > "$tmp/noeol.patch" <<'EOF'
diff --git a/g b/g
new file mode 100644
--- /dev/null
+++ b/g
@@ -0,0 +1,2 @@
+a
+b
\ No newline at end of file
EOF
out=$(sf f "$tmp/add.patch" "$tmp/mid.patch"); rc=$?
ok "series_file.py refuses a hunk without trailing context inside the file, as git does" \
	eval '[ $rc -ne 0 ] && has "$out" "has no trailing context but does not end the file"'
ok "series_file.py keeps a missing newline at the end" \
	[ "$(sf g "$tmp/noeol.patch" | od -An -c | tr -d ' ')" = 'a\nb' ]
printf 'diff --git a/f b/f\ndeleted file mode 100644\n' > "$tmp/del.patch"
out=$(sf f "$tmp/add.patch" "$tmp/del.patch"); rc=$?
ok "series_file.py refuses a file the series deletes" \
	eval '[ $rc -ne 0 ] && has "$out" "deleted file mode"'

tap_done
