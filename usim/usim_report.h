/*
 * How usim reports what the kernel would oops or warn about. Tests read
 * the counters: a clean test ends with no new errors and no new warnings.
 */
#ifndef _USIM_REPORT_H
#define _USIM_REPORT_H

/* Misuse found by a mock (double free, leak at destroy, poison overwritten). */
void usim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned long usim_error_count(void);

/* WARN_ON and WARN_ON_ONCE hits, every one counted. */
unsigned long usim_warn_count(void);

#endif
