/* arena.c — chunked bump allocator (see arena.h). */
#include "ir/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir/fatal.h"

struct ArenaChunk {
    ArenaChunk *next;
    size_t size;
};

enum { ARENA_MIN_CHUNK = 64 * 1024 };

void arena_init(Arena *a) { a->chunk = NULL; a->cur = a->end = NULL; a->total = 0; }

void arena_free(Arena *a)
{
    ArenaChunk *c = a->chunk;
    while (c) {
        ArenaChunk *n = c->next;
        free(c);
        c = n;
    }
    arena_init(a);
}

void *arena_alloc_slow(Arena *a, size_t n)
{
    /* Chunks grow with the arena so that huge modules do few mallocs. */
    size_t size = a->total / 4;
    if (size < ARENA_MIN_CHUNK) size = ARENA_MIN_CHUNK;
    if (size > 16u << 20) size = 16u << 20;
    if (size < n + sizeof(ArenaChunk)) size = n + sizeof(ArenaChunk);
    ArenaChunk *c = malloc(size);
    if (!c) fatal_oom();
    c->next = a->chunk;
    c->size = size;
    a->chunk = c;
    a->total += size;
    a->cur = (char *)(c + 1);
    a->end = (char *)c + size;
    void *p = a->cur;
    a->cur += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
