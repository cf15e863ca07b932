/* report.c - formats messages and hands them to the log callback. */
#include <stdio.h>

#include "report.h"

void opver__vreport(const opver__reporter *reporter, opver_log_level level,
		    const char *format, va_list args)
{
	char message[1024];

	if (reporter != NULL && level > reporter->level)
		return;
	vsnprintf(message, sizeof(message), format, args);
	if (reporter != NULL && reporter->log != NULL)
		reporter->log(reporter->log_user_data, level, message);
	else
		fprintf(stderr, "opver: %s: %s\n", opver_log_level_name(level),
			message);
}

void opver__report(const opver__reporter *reporter, opver_log_level level,
		   const char *format, ...)
{
	va_list args;

	va_start(args, format);
	opver__vreport(reporter, level, format, args);
	va_end(args);
}
