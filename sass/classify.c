/* classify.c — base opcode → class (the table is opcodes.def). */
#include "sass/sass.h"

#include <string.h>

typedef struct OpClass {
    const char *op;
    SassClass cls;
} OpClass;

static const OpClass table[] = {
#define SASS_OP(op, cls) { #op, SASS_##cls },
#include "sass/opcodes.def"
#undef SASS_OP
};

static const char *const names[] = {
#define SASS_CLASS(id, name, what) name,
#include "sass/classes.def"
#undef SASS_CLASS
};

static const char *const whats[] = {
#define SASS_CLASS(id, name, what) what,
#include "sass/classes.def"
#undef SASS_CLASS
};

static int lookup(const char *op, size_t len)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].op) == len && memcmp(table[i].op, op, len) == 0) return (int)table[i].cls;
    return -1;
}

SassClass sass_classify(const char *op, size_t len)
{
    int c = lookup(op, len);
    /* the uniform datapath (Turing on) mirrors the vector one: UIADD3, UMOV, ULDC, ... */
    if (c < 0 && len > 1 && op[0] == 'U') c = lookup(op + 1, len - 1);
    return c < 0 ? SASS_OTHER : (SassClass)c;
}

const char *sass_class_name(SassClass c)
{
    return (unsigned)c < SASS_NCLASSES ? names[c] : "?";
}

const char *sass_class_what(SassClass c)
{
    return (unsigned)c < SASS_NCLASSES ? whats[c] : "?";
}
