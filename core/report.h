/*
 * report.h - the one reporter every core message goes through.
 *
 * A reporter carries the application's log callback and level.  Messages
 * are single lines that say what failed, on what, and what happens next.
 */
#ifndef OPVER_CORE_REPORT_H
#define OPVER_CORE_REPORT_H

#include <stdarg.h>

#include "opver/opver.h"

typedef struct opver__reporter {
	opver_log_fn log;       /* NULL: write to stderr */
	void *log_user_data;
	opver_log_level level;  /* messages above this level are dropped */
} opver__reporter;

/* Formats and delivers one message when `level` passes the reporter's. */
void opver__report(const opver__reporter *reporter, opver_log_level level,
		   const char *format, ...) OPVER__PRINTF(3, 4);

/* Same, from a va_list (for the host services' report_error and log). */
void opver__vreport(const opver__reporter *reporter, opver_log_level level,
		    const char *format, va_list args) OPVER__PRINTF(3, 0);

#define opver__error(reporter, ...) \
	opver__report((reporter), OPVER_LOG_ERROR, __VA_ARGS__)
#define opver__warning(reporter, ...) \
	opver__report((reporter), OPVER_LOG_WARNING, __VA_ARGS__)
#define opver__info(reporter, ...) \
	opver__report((reporter), OPVER_LOG_INFO, __VA_ARGS__)
#define opver__debug(reporter, ...) \
	opver__report((reporter), OPVER_LOG_DEBUG, __VA_ARGS__)

#endif /* OPVER_CORE_REPORT_H */
