/* Ring of allocation records (see alloc_log.h). */
#include "alloc_log.h"

static struct usim_alloc_record ring[USIM_ALLOC_LOG_MAX];
static unsigned long recorded;

void usim_alloc_log_record(enum usim_alloc_site site, const char *name,
			   gfp_t gfp, bool failed)
{
	ring[recorded % USIM_ALLOC_LOG_MAX] = (struct usim_alloc_record){
		.site = site, .name = name, .gfp = gfp, .failed = failed,
	};
	recorded++;
}

void usim_alloc_log_reset(void)
{
	recorded = 0;
}

unsigned long usim_alloc_log_count(void)
{
	return recorded;
}

const struct usim_alloc_record *usim_alloc_log_get(unsigned long i)
{
	if (i >= recorded || recorded - i > USIM_ALLOC_LOG_MAX)
		return NULL;
	return &ring[i % USIM_ALLOC_LOG_MAX];
}

static usim_alloc_observer *observer;

void usim_alloc_observe(usim_alloc_observer *fn)
{
	observer = fn;
}

void usim_alloc_event(const struct usim_alloc_event *ev)
{
	if (observer)
		observer(ev);
}
