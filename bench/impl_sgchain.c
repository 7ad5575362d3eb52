/* sgchain's core, as usim builds it, seen by the benchmark. */
#define IMPL		sgchain
#define BENCH_NAME	"sgchain"
#include "impl_template.h"
