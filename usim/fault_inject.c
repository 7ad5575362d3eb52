/* Fault schedules for usim's allocators (see fault_inject.h). */
#include <linux/compiler.h>
#include "fault_inject.h"

struct usim_fault usim_slab_fault = { .name = "slab" };
struct usim_fault usim_mempool_fault = { .name = "mempool" };
struct usim_fault usim_iova_fault = { .name = "iova" };
struct usim_fault usim_bounce_fault = { .name = "bounce" };

static unsigned int suspended;

static void fault_setup(struct usim_fault *f, unsigned long countdown,
			unsigned long repeat, uint32_t prob_ppm, uint64_t seed)
{
	const char *name = f->name;

	*f = (struct usim_fault){
		.name = name,
		.armed = true,
		.countdown = countdown,
		.repeat = repeat,
		.prob_ppm = prob_ppm,
		/* xorshift64 must not start at zero. */
		.rng = seed ? seed : 0x9e3779b97f4a7c15ULL,
	};
}

void usim_fault_fail_nth(struct usim_fault *f, unsigned long n)
{
	fault_setup(f, n, 1, 0, 0);
}

void usim_fault_fail_from(struct usim_fault *f, unsigned long n)
{
	fault_setup(f, n, USIM_FAULT_FOREVER, 0, 0);
}

void usim_fault_fail_random(struct usim_fault *f, double p, uint64_t seed)
{
	fault_setup(f, 0, 0, (uint32_t)(p * 1e6 + 0.5), seed);
}

void usim_fault_reset(struct usim_fault *f)
{
	fault_setup(f, 0, 0, 0, 0);
	f->armed = false;
}

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

noinline void usim_fault_hit(const struct usim_fault *f)
{
	/* Keeps the call: an empty function the optimiser must not drop. */
	__asm__ volatile("" : : "r"(f) : "memory");
}

bool usim_fault_should_fail(struct usim_fault *f)
{
	bool fail = false;

	if (suspended)
		return false;
	f->calls++;
	if (f->armed) {
		if (f->prob_ppm)
			fail = xorshift64(&f->rng) % 1000000 < f->prob_ppm;
		else if (f->countdown)
			f->countdown--;
		else if (f->repeat) {
			fail = true;
			if (f->repeat != USIM_FAULT_FOREVER)
				f->repeat--;
		}
	}
	if (fail) {
		f->failures++;
		usim_fault_hit(f);
	} else {
		f->successes++;
	}
	return fail;
}

void usim_fault_suspend(void)
{
	suspended++;
}

void usim_fault_resume(void)
{
	suspended--;
}
