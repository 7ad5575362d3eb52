# Sourced by the kport/fixes*.sh scripts, after env.sh: what the fix
# series is made of and where each form lives.
# The fixes that an in-tree caller can hit, by subject: only these carry
# Cc: stable (checked).
STABLE_SUBJECTS=(
	"lib: scatterlist: sg_split: stop at the last part when it ends inside an entry"
)
# The files whose changes are fixes (each patch touching them needs a
# Fixes: tag); every other file a patch touches is a test.
FIXED_FILES=(lib/scatterlist.c lib/sg_split.c)

form_dir() {
	case "$1" in
	mainline) echo kport/fixes ;;
	6.12 | 6.1) echo "kport/fixes-$1" ;;
	*) die "FORM=$1: mainline, 6.12 or 6.1" ;;
	esac
}
form_tree() { form_dir "$1" >/dev/null && echo "$SGCHAIN_CACHE/fixes-$1"; }
form_patches() { find "$REPO/$(form_dir "$1")" -name '[0-9]*.patch' ! -name '0000-*' | sort; }
