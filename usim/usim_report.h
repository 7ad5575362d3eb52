/*
 * How usim reports what the kernel would oops or warn about. Tests read
 * the counters: a clean test ends with no new errors and no new warnings.
 */
#ifndef _USIM_REPORT_H
#define _USIM_REPORT_H

#include <setjmp.h>
#include <stdbool.h>

/* Misuse found by a mock (double free, leak at destroy, poison overwritten). */
void usim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned long usim_error_count(void);

/* WARN_ON and WARN_ON_ONCE hits, every one counted. */
unsigned long usim_warn_count(void);

/*
 * A test that expects a BUG: USIM_CATCH_BUG(stmt) runs @stmt and is true
 * if it hit BUG(), which then jumps back here instead of aborting. What
 * @stmt left half done is left so, as after an oops.
 */
void usim_bug_catch(jmp_buf *catcher);
#define USIM_CATCH_BUG(stmt) ({					\
	jmp_buf __usim_jb;					\
	volatile bool __usim_bugged = false;			\
	if (setjmp(__usim_jb)) {				\
		__usim_bugged = true;				\
	} else {						\
		usim_bug_catch(&__usim_jb);			\
		stmt;						\
	}							\
	usim_bug_catch(NULL);					\
	__usim_bugged;						\
})

#endif
