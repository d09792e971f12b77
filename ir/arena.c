/* arena.c — chunked bump allocator (see arena.h). */
#include "ir/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ir/fatal.h"

struct ArenaChunk {
    ArenaChunk *next;
    size_t size;
    char *used_end;      /* where allocation stopped when the arena moved on */
    int mapped;          /* from mmap (else calloc) */
};

enum { ARENA_MIN_CHUNK = 64 * 1024 };
enum { HUGE_PAGE = 2 * 1024 * 1024 };

/* Chunks are always zero-filled (calloc, or fresh anonymous mappings), so
 * arena_alloc never clears memory itself.  Big chunks are mapped with
 * transparent huge pages: for large modules, page faults on 4 KiB pages
 * were a third of the parse time. */
static ArenaChunk *chunk_new(size_t size)
{
    ArenaChunk *c = NULL;
    if (size >= HUGE_PAGE) {
        size = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
        /* over-map by one huge page to align the chunk on a huge-page boundary */
        char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
            size_t head = a - (uintptr_t)p;
            if (head) munmap(p, head);
            size_t tail = HUGE_PAGE - head;
            if (tail) munmap((char *)a + size, tail);
#ifdef MADV_HUGEPAGE
            madvise((void *)a, size, MADV_HUGEPAGE);
#endif
            c = (ArenaChunk *)a;
            c->mapped = 1;
        }
    }
    if (!c) {
        c = calloc(1, size);
        if (!c) fatal_oom();
    }
    c->size = size;
    return c;
}

void arena_init(Arena *a) { a->chunk = NULL; a->cur = a->end = NULL; a->total = 0; a->spare = NULL; }

static void chunk_free(ArenaChunk *c)
{
    if (c->mapped) munmap(c, c->size);
    else free(c);
}

void arena_free(Arena *a)
{
    for (int list = 0; list < 2; list++) {
        ArenaChunk *c = list ? a->spare : a->chunk;
        while (c) {
            ArenaChunk *n = c->next;
            chunk_free(c);
            c = n;
        }
    }
    arena_init(a);
}

void *arena_alloc_slow(Arena *a, size_t n)
{
    /* Chunks grow with the arena so that huge modules do few mallocs. */
    size_t size = a->total / 4;
    if (size < ARENA_MIN_CHUNK) size = ARENA_MIN_CHUNK;
    if (size > 32u << 20) size = 32u << 20;
    if (size < n + sizeof(ArenaChunk)) size = n + sizeof(ArenaChunk);
    if (a->chunk) a->chunk->used_end = a->cur;
    ArenaChunk *c = NULL;
    /* a released chunk that is big enough (they are zero already) */
    for (ArenaChunk **pp = &a->spare; *pp; pp = &(*pp)->next)
        if ((*pp)->size >= n + sizeof(ArenaChunk)) {
            c = *pp;
            *pp = c->next;
            a->total -= c->size;
            break;
        }
    if (!c) c = chunk_new(size);
    c->next = a->chunk;
    a->chunk = c;
    a->total += c->size;
    a->cur = (char *)(c + 1);
    a->end = (char *)c + c->size;
    void *p = a->cur;
    a->cur += n;
    return p;
}

void arena_release(Arena *a, ArenaMark m)
{
    /* Chunks allocated after the mark are cleared and kept as spares. */
    while (a->chunk && a->chunk != m.chunk) {
        ArenaChunk *c = a->chunk;
        char *used_end = (a->cur && a->cur > (char *)c && a->cur <= (char *)c + c->size) ? a->cur : c->used_end;
        memset(c + 1, 0, (size_t)(used_end - (char *)(c + 1)));
        a->chunk = c->next;
        a->cur = a->chunk ? a->chunk->used_end : NULL;
        c->next = a->spare;
        a->spare = c;
    }
    if (!m.chunk) { a->cur = a->end = NULL; return; }
    /* the mark's chunk: clear what was allocated after the mark */
    char *used_end = a->cur ? a->cur : m.cur;
    if (used_end > m.cur) memset(m.cur, 0, (size_t)(used_end - m.cur));
    a->cur = m.cur;
    a->end = m.end;
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
