/* fuzz_frontend.c — libFuzzer harness for the PTX front end and printer.
 *
 * For every input: parse it; if it parses, the lossless print must equal
 * the input byte for byte, and the canonical print must parse again and
 * print to the same text.  Any crash, sanitizer report or broken property
 * is a finding.  Built and run by testsuite/fuzz/run.sh (and .ci/run). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/print.h"
#include "parser/parse.h"

static FILE *devnull;

static Module *parse_copy(const char *data, size_t size)
{
    char *buf = malloc(size + 2);
    if (!buf) abort();
    memcpy(buf, data, size);
    return parse_module("fuzz.ptx", buf, size, devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) devnull = fopen("/dev/null", "w");
    if (size > (1u << 20)) return 0;
    Module *m = parse_copy((const char *)data, size);
    if (!m) return 0;

    OutBuf o;
    out_init(&o);
    print_module(&o, m, false);
    if (o.len != size || memcmp(o.p, data, size) != 0) {
        fprintf(stderr, "lossless print differs from the input\n");
        abort();
    }
    out_free(&o);

    out_init(&o);
    print_module(&o, m, true);
    ir_module_free(m);
    Module *m2 = parse_copy(o.p ? o.p : "", o.len);
    if (!m2) {
        fprintf(stderr, "canonical output does not parse:\n%.*s\n", (int)o.len, o.p ? o.p : "");
        abort();
    }
    OutBuf o2;
    out_init(&o2);
    print_module(&o2, m2, true);
    if (o2.len != o.len || memcmp(o2.p, o.p, o.len) != 0) {
        fprintf(stderr, "canonical printing is not idempotent\n");
        abort();
    }
    out_free(&o2);
    out_free(&o);
    ir_module_free(m2);
    return 0;
}
