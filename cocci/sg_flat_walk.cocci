// SPDX-License-Identifier: GPL-2.0-only
/// Find scatterlist walks that step with sg++, sg + i or sg[i].
///
/// A scatterlist can be chained: the last entry of one table may be a link to
/// the next table (sg_chain(), sg_alloc_table() above SG_MAX_SINGLE_ALLOC
/// entries, the SCSI midlayer, AF_ALG, scatterwalk_ffwd()). Only sg_next() and
/// the iterators built on it (for_each_sg(), scsi_for_each_sg()) follow a
/// link; pointer arithmetic and indexing step onto the link entry, read its
/// page_link as a page and its length as data, then walk off the table.
///
/// Reported: a struct scatterlist pointer advanced (++, --, +=, -=), offset
/// (sg + e, sg - e, constants included) or indexed with a non-constant
/// index, whether it is a local, a parameter, a field or
/// scsi_sglist()/scsi_prot_sglist(). A constant index (sg[0], sg[1]) is not:
/// it nearly always names an entry of a table the code just built, where an
/// offset steps a cursor. That misses scatterwalk_ffwd()'s two-entry table,
/// whose entry [1] may be a link.
///
/// Not reported:
///  - a list the function itself passes to sg_init_table() or sg_init_one(),
///    which would overwrite any link in it, unless it also gives the list a
///    link (sg_chain(), __sg_chain(), page_link, scatterwalk_ffwd(),
///    scatterwalk_crypto_chain());
///  - a pointer, not a parameter, that only ever holds arrays of entries,
///    fresh allocations (kmalloc() and friends, mempool_alloc(),
///    sgl_alloc()), locals (not parameters) that only hold fresh
///    allocations (a buffer carved into tables), or other such pointers;
///  - a field of a struct the file's code owns that the file only ever sets
///    that way, or passes to sg_init_table(), and never gives a link: the
///    object builds the table. The fields of struct include/ declares (a
///    crypto request's src and dst, mmc_data's sg, ...) come from callers
///    and are never taken as built by the file;
///  - a pointer that the function tests with sg_is_chain() or
///    sg_chain_ptr(): it follows links itself;
///  - code built only where ARCH_NO_SG_CHAIN is selected (alpha, parisc and
///    its buses, ARM footbridge and sa1100), where sg_alloc_table() and the
///    SCSI midlayer never chain. A list chained by hand (sg_chain(), the
///    crypto templates, AF_ALG) can still reach code there and is missed;
///  - tools/, which holds userspace copies of the API and test programs.
/// Fields are known by name within one file, whatever their struct.
///
/// Types come from the C file and the headers it includes with quotes
/// (--local-includes: a driver's own structs). Fields of structs declared
/// in include/ are known by the table in the initialize rule: a walk of
/// req->src where req is a struct skcipher_request, say. Reading include/
/// too (--recursive-includes --include-headers-for-types) costs about 19 s
/// for the first file and still loses every struct whose declaration the
/// parser cannot read (CRYPTO_MINALIGN_ATTR: every crypto request).
/// Missed for want of a type: a pointer declared inside a macro; a member
/// of a struct from include/ embedded in another (cmd->se_cmd.t_data_sg);
/// an array parameter (struct scatterlist sgl[]); a function spatch cannot
/// parse.
///
/// Files are read only if they name struct scatterlist or one of the entry
/// helpers (sg_dma_address(), sg_set_buf(), sg_next() and friends), which
/// is what lets --use-gitgrep narrow the tree to about 1,300 files.
///
/// Run it one file per spatch process: spatch 1.1.1 loses the types of a
/// local header's nested and anonymous structs in the second file of a
/// process that read the header for the first (a whole-tree coccicheck
/// misses such walks in net/rds, for one).
///
/// No patch mode: sg = sg_next(sg) is right only where the walk needs no
/// cursor and the list's end is marked, which the rule cannot see, and over
/// Linux 6.12 it would rewrite one loop.
//
// Confidence: Moderate
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --local-includes --include-headers

virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# Fields of struct scatterlist * declared in include/, by struct (6.12 and
# 6.1; make cocci checks the table against both trees' headers).
HEADER_FIELDS = {
	"acomp_req": ("src", "dst"),
	"aead_request": ("src", "dst"),
	"af_alg_async_req": ("tsgl",),
	"agp_memory": ("sg_list",),
	"ahash_request": ("src",),
	"akcipher_request": ("src", "dst"),
	"ata_queued_cmd": ("sg", "cursg"),
	"brcm_message": ("src", "dst"),
	"bsg_buffer": ("sg_list",),
	"ccp_aes_engine": ("key", "iv", "src", "dst", "cmac_key"),
	"ccp_des3_engine": ("key", "iv", "src", "dst"),
	"ccp_ecc_engine": ("mod",),
	"ccp_ecc_modular_math": ("operand_1", "operand_2", "result"),
	"ccp_ecc_point": ("x", "y"),
	"ccp_ecc_point_math": ("domain_a", "scalar"),
	"ccp_passthru_engine": ("mask", "src", "dst"),
	"ccp_rsa_engine": ("exp", "mod", "src", "dst"),
	"ccp_sha_engine": ("ctx", "src", "opad"),
	"ccp_xts_aes_engine": ("key", "iv", "src", "dst"),
	"crypto_hash_walk": ("sg",),
	"ffa_mem_ops_args": ("sg",),
	"ib_block_iter": ("__sg",),
	"idmac_tx_desc": ("sg",),
	"ib_umem_dmabuf": ("first_sg", "last_sg"),
	"iscsi_segment": ("sg",),
	"iscsit_cmd": ("first_data_sg",),
	"kpp_request": ("src", "dst"),
	"mmc_data": ("sg",),
	"nvmefc_fcp_req": ("first_sgl",),
	"nvmefc_tgt_fcp_req": ("sg",),
	"rio_dma_data": ("sg",),
	"saa7146_pgtable": ("slist",),
	"sas_task": ("scatter",),
	"scatter_walk": ("sg",),
	"scsi_pointer": ("buffer",),
	"se_cmd": ("t_data_sg", "t_data_sg_orig", "t_bidi_data_sg", "t_prot_sg"),
	"sg_append_table": ("prv",),
	"sg_page_iter": ("sg",),
	"sg_table": ("sgl",),
	"skcipher_request": ("src", "dst"),
	"tls_context": ("partially_sent_record",),
	"ttm_kmap_iter_iomap": ("sg",),
	"urb": ("sg",),
	"usb_request": ("sg",),
	"videobuf_dmabuf": ("sglist",),
	"virtio_admin_cmd": ("data_sg", "result_sg"),
}

# Paths built only for architectures that select ARCH_NO_SG_CHAIN, and
# tools/, which is not kernel code.
QUIET_PATHS = (
	"arch/alpha/",
	"arch/parisc/",
	"drivers/parisc/",
	"arch/arm/mach-footbridge/",
	"arch/arm/mach-sa1100/",
	"tools/",
)

made = set()		# (file, function, list): sg_init_table()ed here
linked = set()		# (file, function, list): given a link here
link_aware = set()	# (file, function, pointer): tested for a link here
params = set()		# (file, function, name): a parameter, of any type
ptr_diffs = set()	# (file, line, column): p - q, two pointers
assigned = {}		# (file, function, pointer): [value, ...]
arrays = set()		# (file, function, value): an array of entries
made_fields = set()	# (file, field): sg_init_table()ed in the file
linked_fields = set()	# (file, field): given a link in the file
field_values = {}	# (file, field): [(function, value), ...]
buffers = {}		# (file, function, local): [value, ...], of any type

def text(e):
	# Tokens come spaced apart; keep a space only between two words.
	e = re.sub(r"\s+", " ", e.strip())
	return re.sub(r" ?([^\w ]) ?", r"\1", e)

def rel(f):
	return f[2:] if f.startswith("./") else f

def where(p, e):
	return (rel(p[0].file), p[0].current_element, text(e))

def struct_name(t):
	return re.sub(r"\bstruct\b|\*|\s", "", t)

def header_field(t, f):
	return f in HEADER_FIELDS.get(struct_name(t), ())

def base_of(e):
	# The entry an expression names: &x->sg[0] is in x->sg.
	e = text(e)
	m = re.match(r"^&(.*)\[[^][]*\]$", e)
	return m.group(1) if m else e

def field_of(e):
	m = re.search(r"(->|\.)(\w+)$", base_of(e))
	return m.group(2) if m else None

def note_made(p, b):
	# The function made exactly this list; the object made the field.
	made.add(where(p, b))
	if field_of(b):
		made_fields.add((rel(p[0].file), field_of(b)))

def note_linked(p, b):
	linked.add(where(p, base_of(b)))
	if field_of(b):
		linked_fields.add((rel(p[0].file), field_of(b)))

def note_assigned(p, ptr, value):
	# ptr = ptr + 1 or sg_next(ptr) moves along the list ptr already holds.
	if re.match(re.escape(text(ptr)) + r"[-+](?!>)|sg_next\(%s\)$" % re.escape(text(ptr)),
		    text(value)):
		return
	assigned.setdefault(where(p, ptr), []).append(text(value))
	if field_of(ptr):
		field_values.setdefault((rel(p[0].file), field_of(ptr)), []).append(
			(p[0].current_element, text(value)))

def note_buffer(p, v, value):
	buffers.setdefault(where(p, v), []).append(text(value))

def note_array(p, t, a, i):
	if "[" in t:
		arrays.add((rel(p[0].file), p[0].current_element,
			    text("&%s[%s]" % (a, i)) if i else text(a)))

# A fresh allocation, behind a cast or not.
ALLOCATION = re.compile(r"^(\([^()]*(\([^()]*\))?[^()]*\))?"
			r"(k[mz]alloc|kcalloc|kmalloc_array|k[mz]alloc_node|"
			r"kcalloc_node|kmalloc_array_node|kv[mz]alloc|kvcalloc|"
			r"kvmalloc_array|kvmalloc_node|kvzalloc_node|devm_k[mz]alloc|"
			r"devm_kcalloc|devm_kmalloc_array|v[mz]alloc|vcalloc|vmalloc_array|"
			r"kmem_cache_[mz]?alloc|mempool_alloc|__get_free_pages?|"
			r"get_zeroed_page|sgl_alloc|sgl_alloc_order)\(")
# Entries right after an object: (struct scatterlist *)&x[1] or (x + 1).
TRAILING = re.compile(r"^\(struct scatterlist\*\)(&\w+\[1\]|\(\w+\+1\))$")

candidates = []		# (position, expression, form, header field) in this file
pending = []		# (position, message) of the walks of this file
shown = set()		# (file, line, column) of every walk kept
seen = set()		# (file, line, expression, form): the same walk twice

FORMS = {
	"advance": "advanced by pointer arithmetic",
	"offset": "offset by pointer arithmetic",
	"index": "indexed by a variable",
}

def at(p):
	return (rel(p[0].file), p[0].line, p[0].column)

def candidate(p, e, form, header=False):
	# The walk at p of e, to be judged once the facts of its file are in.
	candidates.append((p, text(e), form, header))

def verdict():
	# Report each candidate no fact of its file shows flat, once.
	for p, e, form, header in candidates:
		walk = (rel(p[0].file), p[0].line, e, form)
		if walk in seen or at(p) in ptr_diffs or is_quiet(p, e, header):
			continue
		seen.add(walk)
		shown.add(at(p))
		pending.append((p, "WARNING: %s(): %s %s; a chained list needs sg_next() [%s]"
				% (p[0].current_element, e, FORMS[form], form)))
	del candidates[:]

def is_buffer(f, func, value):
	# A local of any type that only ever holds fresh allocations: a buffer
	# the code carves into tables (v = kzalloc(...); t->sgl = v; v += n).
	values = buffers.get((f, func, value))
	return ((f, func, value) not in params and bool(values) and
		all(ALLOCATION.match(v) for v in values))

# A value is "flat", "neutral" (NULL, or a loop back to what is being
# judged) or foreign; a pointer or field is flat when every value it takes
# is flat or neutral and one at least is flat.
def value_kind(f, func, value, seen):
	fld = field_of(value)
	if value == "NULL":
		return "neutral"
	if (ALLOCATION.match(value) or TRAILING.match(value) or
	    ((f, func, value) in arrays and (f, func, base_of(value)) not in linked and
	     (f, func, value) not in params) or is_buffer(f, func, value)):
		return "flat"
	kind = pointer_kind(f, func, value, seen)
	if kind == "foreign" and fld is not None:
		kind = field_kind(f, fld, seen)
	return kind

def judge(kinds):
	if "foreign" in kinds or "flat" not in kinds:
		return "foreign" if "foreign" in kinds or not kinds else "neutral"
	return "flat"

def pointer_kind(f, func, ptr, seen):
	key = (f, func, ptr)
	if key in seen:
		return "neutral"
	seen = seen | {key}
	if key in linked:
		return "foreign"
	if key in made:
		return "flat"
	if key in params:
		return "foreign"
	values = assigned.get(key)
	if not values:
		return "foreign"
	return judge([value_kind(f, func, v, seen) for v in values])

def field_is_linked(f, fld):
	# Given a link directly, or through a pointer that held the field.
	return (f, fld) in linked_fields or any(
		key[0] == f and field_of(v) == fld
		for key in linked for v in assigned.get(key, []))

def field_kind(f, fld, seen):
	# A field the file builds as one table and never points elsewhere.
	if (f, fld) in seen:
		return "neutral"
	seen = seen | {(f, fld)}
	if field_is_linked(f, fld):
		return "foreign"
	kinds = [value_kind(f, func, v, seen) for func, v in field_values.get((f, fld), [])]
	if (f, fld) in made_fields:
		kinds.append("flat")
	return judge(kinds)

def is_quiet(p, e, header):
	f = rel(p[0].file)
	if f.startswith(QUIET_PATHS):
		return True
	ptr = (f, p[0].current_element, base_of(e))
	if ptr in link_aware:
		return True
	if pointer_kind(f, ptr[1], ptr[2], frozenset()) == "flat":
		return True
	# A field of a struct from include/ belongs to its caller.
	fld = field_of(e)
	return (not header and fld is not None and
		field_kind(f, fld, frozenset()) == "flat")

@gate_type@
struct scatterlist *x;
@@
x

@gate_helper@
expression E;
@@
\(sg_dma_address(E)\|sg_dma_len(E)\|sg_page(E)\|sg_virt(E)\|sg_phys(E)\|
  scsi_sglist(E)\|scsi_prot_sglist(E)\|sg_next(E)\|sg_nents(E)\|
  sg_set_buf(E, ...)\|sg_set_page(E, ...)\|sg_assign_page(E, ...)\|
  sg_mark_end(E)\|sg_unmark_end(E)\|sg_init_table(E, ...)\|sg_init_one(E, ...)\)

@walk_ptr@
struct scatterlist *sg;
expression E;
constant C;
position pa, po, pi;
@@
(
 sg[C]
|
 sg@pi[E]
|
 \(sg@pa++\|++sg@pa\|sg@pa--\|--sg@pa\|sg@pa += E\|sg@pa -= E\)
|
 \(sg@po + E\|E + sg@po\|sg@po - E\)
)

@script:python@
sg << walk_ptr.sg;
p << walk_ptr.pa;
@@
candidate(p, sg, "advance")

@script:python@
sg << walk_ptr.sg;
p << walk_ptr.po;
@@
candidate(p, sg, "offset")

@script:python@
sg << walk_ptr.sg;
p << walk_ptr.pi;
@@
candidate(p, sg, "index")

@walk_arrow depends on gate_type || gate_helper@
type T;
T *b;
identifier fld;
expression E;
constant C;
position pa, po, pi;
@@
(
 b->fld[C]
|
 b->fld@pi[E]
|
 \(b->fld@pa++\|++b->fld@pa\|b->fld@pa--\|--b->fld@pa\|b->fld@pa += E\|
   b->fld@pa -= E\)
|
 \(b->fld@po + E\|b->fld@po - E\)
)

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.pa;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "advance", True)

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.po;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "offset", True)

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.pi;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "index", True)

@walk_dot depends on gate_type || gate_helper@
type T;
T s;
identifier fld;
expression E;
constant C;
position pa, po, pi;
@@
(
 s.fld[C]
|
 s.fld@pi[E]
|
 \(s.fld@pa++\|++s.fld@pa\|s.fld@pa--\|--s.fld@pa\|s.fld@pa += E\|
   s.fld@pa -= E\)
|
 \(s.fld@po + E\|s.fld@po - E\)
)

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.pa;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "advance", True)

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.po;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "offset", True)

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.pi;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "index", True)

@walk_call depends on gate_type || gate_helper@
identifier f = {scsi_sglist, scsi_prot_sglist};
expression X, E;
constant C;
position po, pi;
@@
(
 f(X)[C]
|
 f(X)@pi[E]
|
 \(f(X)@po + E\|f(X)@po - E\)
)

@script:python@
f << walk_call.f;
X << walk_call.X;
p << walk_call.po;
@@
candidate(p, f + "(" + X + ")", "offset", True)

@script:python@
f << walk_call.f;
X << walk_call.X;
p << walk_call.pi;
@@
candidate(p, f + "(" + X + ")", "index", True)

@ptr_difference depends on walk_ptr@
struct scatterlist *a, b;
position p;
@@
a@p - b

@script:python@
p << ptr_difference.p;
@@
ptr_diffs.add(at(p))

@made depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
expression B;
position p;
@@
\(sg_init_table\|sg_init_one\)(B@p, ...)

@script:python@
B << made.B;
p << made.p;
@@
note_made(p, B)

@linked depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
expression B, E;
position p;
@@
(
 sg_chain(B@p, ...)
|
 __sg_chain(B@p, ...)
|
 scatterwalk_ffwd(B@p, ...)
|
 scatterwalk_crypto_chain(B@p, ...)
|
 B@p->page_link = E
)

@script:python@
B << linked.B;
p << linked.p;
@@
note_linked(p, B)

@link_tested depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
expression B;
position p;
@@
\(sg_is_chain\|sg_chain_ptr\)(B@p)

@script:python@
B << link_tested.B;
p << link_tested.p;
@@
link_aware.add(where(p, base_of(B)))

@param depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier fn, P;
type T;
position p;
@@
fn(..., T P@p, ...) { ... }

@script:python@
P << param.P;
p << param.p;
@@
params.add(where(p, P))

@assigned depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
struct scatterlist *P;
expression E;
position p;
@@
P@p = E

@script:python@
P << assigned.P;
E << assigned.E;
p << assigned.p;
@@
note_assigned(p, P, E)

@declared depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier P;
expression E;
position p;
@@
struct scatterlist *P@p = E;

@script:python@
P << declared.P;
E << declared.E;
p << declared.p;
@@
note_assigned(p, P, E)

@buffer depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier v;
expression E;
position p;
@@
v@p = E

@script:python@
v << buffer.v;
E << buffer.E;
p << buffer.p;
@@
note_buffer(p, v, E)

@buffer_declared depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier v;
type T;
expression E;
position p;
@@
T v@p = E;

@script:python@
v << buffer_declared.v;
E << buffer_declared.E;
p << buffer_declared.p;
@@
note_buffer(p, v, E)

@array_entry depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
struct scatterlist *P;
type T;
T A;
expression E;
position p;
@@
P@p = &A[E]

@script:python@
T << array_entry.T;
A << array_entry.A;
E << array_entry.E;
p << array_entry.p;
@@
note_array(p, T, A, E)

@array_value depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
struct scatterlist *P;
type T;
T A;
position p;
@@
P@p = A

@script:python@
T << array_value.T;
A << array_value.A;
p << array_value.p;
@@
note_array(p, T, A, "")

@array_declared depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier P;
type T;
T A;
expression E;
position p;
@@
\(struct scatterlist *P@p = &A[E];\|struct scatterlist *P@p = A;\)

@script:python@
T << array_declared.T;
A << array_declared.A;
E << array_declared.E = "";
p << array_declared.p;
@@
note_array(p, T, A, E)

@script:python depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
@@
verdict()

@script:python depends on report && (walk_ptr || walk_arrow || walk_dot || walk_call)@
@@
for p, msg in pending:
	coccilib.report.print_report(p[0], msg)
del pending[:]

@script:python depends on org && (walk_ptr || walk_arrow || walk_dot || walk_call)@
@@
for p, msg in pending:
	coccilib.org.print_todo(p[0], msg)
del pending[:]

@depends on context && (walk_ptr || walk_arrow || walk_dot || walk_call)@
expression e;
position p : script:python() { at(p) in shown };
@@
* e@p

@script:python depends on context && (walk_ptr || walk_arrow || walk_dot || walk_call)@
@@
del pending[:]
