/* cli.h — what the command-line programs share when they parse options:
 * GNU-style usage errors ("PROG: message" then "Try 'PROG --help' ...",
 * exit status 2) and range-checked numbers. */
#ifndef PTXOPT_DRIVER_CLI_H
#define PTXOPT_DRIVER_CLI_H

/* Prints PROG: fmt (with arg), the --help hint, and exits with status 2. */
_Noreturn void cli_usage_error(const char *prog, const char *fmt, const char *arg);
/* The decimal integer v of option --opt, in lo..hi, or a usage error. */
long cli_parse_long(const char *prog, const char *opt, const char *v, long lo, long hi);

#endif
