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
/// (sg + e, sg - e) or indexed with a non-constant index, whether it is a
/// local, a parameter, a field or scsi_sglist()/scsi_prot_sglist().
///
/// Not reported:
///  - a list the function passes to sg_init_table() or sg_init_one(): that
///    would overwrite any link in it (unless sg_chain() then adds one);
///  - a pointer, not a parameter, that only ever holds arrays of entries,
///    fresh allocations (kmalloc() and friends, mempool_alloc(),
///    sgl_alloc()), carved-up byte buffers, or other such pointers;
///  - a field that its file only ever sets that way or passes to
///    sg_init_table(), and never gives a link: the object builds the table;
///  - a pointer that the function tests with sg_is_chain() or
///    sg_chain_ptr(): it follows links itself;
///  - code built only where ARCH_NO_SG_CHAIN is selected (alpha, parisc and
///    its buses, ARM footbridge and sa1100): nothing there can chain.
/// Fields are known by name within one file, whatever their struct.
///
/// Types come from the C file and the headers it includes with quotes
/// (--local-includes: a driver's own structs). Fields of structs declared
/// in include/ are known by the table in the initialize rule: a walk of
/// req->src where req is a struct skcipher_request, say. Reading include/
/// too (--recursive-includes --include-headers-for-types) costs about 19 s
/// for the first file and still loses every struct whose declaration the
/// parser cannot read (CRYPTO_MINALIGN_ATTR: every crypto request).
/// A pointer declared inside a macro has no type and is missed.
///
/// Files are read only if they name struct scatterlist or one of the entry
/// accessors (sg_dma_address() and friends), which is what lets
/// --use-gitgrep narrow the tree to about 1,200 files.
///
/// A constant index (sg[0], sg[1]) is not reported: it is nearly always an
/// entry of an array the code just built. That misses scatterwalk_ffwd()'s
/// two-entry table, whose second entry is a link.
//
// Confidence: Moderate
// Comments: In patch mode only "sg++" in the step of a for loop becomes
//  "sg = sg_next(sg)", where the loop's condition does not compare the
//  pointer and nothing reads it after the loop. Every other form needs a
//  cursor the code does not have: report it and convert it by hand.
// Options: --local-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# Fields of struct scatterlist * declared in include/, by struct (6.12).
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
	"ccp_passthru_engine": ("mask", "src", "dst"),
	"ccp_rsa_engine": ("exp", "mod", "src", "dst"),
	"ccp_sha_engine": ("ctx", "src", "opad"),
	"ccp_xts_aes_engine": ("key", "iv", "src", "dst"),
	"crypto_hash_walk": ("sg",),
	"ffa_mem_ops_args": ("sg",),
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
	"virtio_admin_cmd": ("data_sg", "result_sg"),
}

# Paths built only for architectures that select ARCH_NO_SG_CHAIN.
NO_CHAIN_PATHS = (
	"arch/alpha/",
	"arch/parisc/",
	"drivers/parisc/",
	"arch/arm/mach-footbridge/",
	"arch/arm/mach-sa1100/",
)

made = set()		# (file, function, list): sg_init_table()ed here
linked = set()		# (file, function, list): given a link here
link_aware = set()	# (file, function, pointer): tested for a link here
params = set()		# (file, function, pointer)
assigned = {}		# (file, function, pointer): [value, ...]
arrays = set()		# (file, function, value): an array of entries
made_fields = set()	# (file, field): sg_init_table()ed in the file
linked_fields = set()	# (file, field): given a link in the file
field_values = {}	# (file, field): [(function, value), ...]
storage = set()		# (file, function, value): a byte buffer, carved

def text(e):
	# Tokens come spaced apart; keep a space only between two words.
	e = re.sub(r"\s+", " ", e.strip())
	return re.sub(r" ?([^\w ]) ?", r"\1", e)

def rel(f):
	return f[2:] if f.startswith("./") else f

def where(p, e):
	return (rel(p[0].file), p[0].current_element, text(e))

def struct_name(t):
	t = re.sub(r"\bstruct\b|\*|\s", "", t)
	return t

def header_field(t, f):
	return f in HEADER_FIELDS.get(struct_name(t), ())

def base_of(e):
	# The list an expression starts: &sg[0] and sg + 0 are sg.
	e = text(e)
	m = re.match(r"^&(.*)\[[^][]*\]$", e)
	return m.group(1) if m else e

def field_of(e):
	m = re.search(r"(->|\.)(\w+)$", base_of(e))
	return m.group(2) if m else None

def note_made(p, b):
	made.add(where(p, base_of(b)))
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

candidates = []		# (position, expression, form) in this file
pending = []		# (position, message) of the walks of this file
shown = set()		# (file, line, column) of every walk kept
seen = set()		# (file, line, expression, form): the same walk twice
compared = set()	# (file, line, column) of sg++ in a loop that tests sg

FORMS = {
	"advance": "advanced by pointer arithmetic",
	"offset": "offset by pointer arithmetic",
	"index": "indexed by a variable",
}

def at(p):
	return (rel(p[0].file), p[0].line, p[0].column)

def candidate(p, e, form):
	# The walk at p of e, to be judged once the facts of its file are in.
	candidates.append((p, text(e), form))

def verdict():
	# Report each candidate no fact of its file shows flat, once.
	for p, e, form in candidates:
		walk = (rel(p[0].file), p[0].line, e, form)
		if walk in seen or is_quiet(p, e):
			continue
		seen.add(walk)
		shown.add(at(p))
		pending.append((p, "WARNING: %s(): %s %s; a chained list needs sg_next() [%s]"
				% (p[0].current_element, e, FORMS[form], form)))
	del candidates[:]

def value_is_flat(f, func, value, seen):
	# A value stored in a list pointer: NULL, a fresh allocation, a byte
	# buffer carved up, an array of entries, or a pointer or field that is
	# itself flat.
	fld = field_of(value)
	return (value == "NULL" or ALLOCATION.match(value) is not None or
		(f, func, value) in arrays or (f, func, value) in storage or
		pointer_is_flat(f, func, value, seen) or
		(fld is not None and field_is_flat(f, fld, seen)))

def pointer_is_flat(f, func, ptr, seen):
	key = (f, func, ptr)
	if key in seen:
		return False
	seen = seen | {key}
	if key in linked:
		return False
	if key in made:
		return True
	values = assigned.get(key)
	return (key not in params and bool(values) and
		any(v != "NULL" for v in values) and
		all(value_is_flat(f, func, v, seen) for v in values))

def field_is_linked(f, fld):
	# Given a link directly, or through a pointer that held the field.
	return (f, fld) in linked_fields or any(
		key[0] == f and field_of(v) == fld
		for key in linked for v in assigned.get(key, []))

def field_is_flat(f, fld, seen):
	# A field the file builds as one table and never points elsewhere.
	if (f, fld) in seen or field_is_linked(f, fld):
		return False
	seen = seen | {(f, fld)}
	values = field_values.get((f, fld), [])
	if not all(value_is_flat(f, func, v, seen) for func, v in values):
		return False
	return (f, fld) in made_fields or any(v != "NULL" for _, v in values)

def is_quiet(p, e):
	f = rel(p[0].file)
	if f.startswith(NO_CHAIN_PATHS):
		return True
	ptr = (f, p[0].current_element, base_of(e))
	if ptr in link_aware:
		return True
	if pointer_is_flat(f, ptr[1], ptr[2], frozenset()):
		return True
	fld = field_of(e)
	return fld is not None and field_is_flat(f, fld, frozenset())

@gate_type@
struct scatterlist *x;
@@
x

@gate_accessor@
expression E;
@@
\(sg_dma_address(E)\|sg_dma_len(E)\|sg_page(E)\|sg_virt(E)\|sg_phys(E)\|scsi_sglist(E)\|scsi_prot_sglist(E)\)

@walk_ptr@
struct scatterlist *sg;
expression E;
constant C;
position pa, po, pi;
@@
(
 sg[C]
|
 \(sg@pa++\|++sg@pa\|sg@pa--\|--sg@pa\|sg@pa += E\|sg@pa -= E\)
|
 \(sg@po + E\|E + sg@po\|sg@po - E\)
|
 sg@pi[E]
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

@walk_arrow depends on gate_type || gate_accessor@
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
 \(b->fld@pa++\|++b->fld@pa\|b->fld@pa += E\)
|
 \(b->fld@po + E\|b->fld@po - E\)
|
 b->fld@pi[E]
)

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.pa;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "advance")

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.po;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "offset")

@script:python@
T << walk_arrow.T;
b << walk_arrow.b;
fld << walk_arrow.fld;
p << walk_arrow.pi;
@@
if header_field(T, fld):
	candidate(p, b + "->" + fld, "index")

@walk_dot depends on gate_type || gate_accessor@
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
 \(s.fld@pa++\|++s.fld@pa\|s.fld@pa += E\)
|
 \(s.fld@po + E\|s.fld@po - E\)
|
 s.fld@pi[E]
)

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.pa;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "advance")

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.po;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "offset")

@script:python@
T << walk_dot.T;
s << walk_dot.s;
fld << walk_dot.fld;
p << walk_dot.pi;
@@
if header_field(T, fld):
	candidate(p, s + "." + fld, "index")

@walk_call depends on gate_type || gate_accessor@
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
 f(X)@po + E
)

@script:python@
f << walk_call.f;
X << walk_call.X;
p << walk_call.po;
@@
candidate(p, f + "(" + X + ")", "offset")

@script:python@
f << walk_call.f;
X << walk_call.X;
p << walk_call.pi;
@@
candidate(p, f + "(" + X + ")", "index")

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
expression B;
position p;
@@
sg_chain(B@p, ...)

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
position p;
@@
fn(..., struct scatterlist *P@p, ...) { ... }

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

@storage_value depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
typedef u8;
struct scatterlist *P;
{u8 *, unsigned char *, char *} E;
position p;
@@
P@p = E

@script:python@
E << storage_value.E;
p << storage_value.p;
@@
storage.add(where(p, E))

@array_value depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
struct scatterlist *P;
type T;
T A;
expression E;
position p;
@@
\(P@p = A\|P@p = &A[E]\)

@script:python@
T << array_value.T;
A << array_value.A;
E << array_value.E = "";
p << array_value.p;
@@
note_array(p, T, A, E)

@array_declared depends on (walk_ptr || walk_arrow || walk_dot || walk_call)@
identifier P;
type T;
T A;
expression E;
position p;
@@
\(struct scatterlist *P@p = A;\|struct scatterlist *P@p = &A[E];\)

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


@step_compared depends on patch && walk_ptr@
struct scatterlist *sg;
expression E;
statement S;
position p;
@@
(
 for (...; <+... sg ...+>; sg@p++) S
|
 for (...; <+... sg ...+>; E, sg@p++) S
|
 for (...; <+... sg ...+>; sg@p++, E) S
)

@script:python@
p << step_compared.p;
@@
compared.add(at(p))

@step depends on patch && walk_ptr@
struct scatterlist *sg;
expression E;
statement S;
position p : script:python() { at(p) in shown and at(p) not in compared };
@@
(
 for (...; ...;
-	sg@p++
+	sg = sg_next(sg)
 ) S
|
 for (...; ...;
-	E, sg@p++
+	E, sg = sg_next(sg)
 ) S
|
 for (...; ...;
-	sg@p++, E
+	sg = sg_next(sg), E
 ) S
)
... when != sg

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

