/*
 * Linux 6.1's own scatterlist code, seen by the benchmark. Built with the
 * extracted 6.1 headers first on the include path and bench/k61_shim.h
 * forced in, so its names carry a k61_ prefix; built again with K61=k61b
 * for the control, a second copy of the same code placed elsewhere.
 */
#include "k61_shim.h"

#define IMPL		K61
#define BENCH_NAME	"linux-6.1"
#include "impl_template.h"
