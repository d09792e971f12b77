/* arena.h — bump allocation for everything a module owns.
 * Memory is released all at once with arena_free; nothing is freed singly. */
#ifndef PTXOPT_ARENA_H
#define PTXOPT_ARENA_H

#include <stddef.h>
#include <string.h>

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *chunk;
    char *cur, *end;
    size_t total;        /* bytes obtained from the system */
    ArenaChunk *spare;   /* released chunks, zeroed, kept for reuse */
} Arena;

/* A position in an arena: everything allocated after it can be released
 * at once (arena_release), and the memory is reused by later allocations.
 * Streaming (one function at a time) keeps peak memory at the size of the
 * largest function this way, and reused memory costs no page faults. */
typedef struct ArenaMark {
    ArenaChunk *chunk;
    char *cur, *end;
} ArenaMark;

static inline ArenaMark arena_mark(const Arena *a) { return (ArenaMark){ a->chunk, a->cur, a->end }; }
void arena_release(Arena *a, ArenaMark m);

void  arena_init(Arena *a);
void  arena_free(Arena *a);
void *arena_alloc_slow(Arena *a, size_t n);

/* Aligned to 8 bytes, zero-filled. Aborts (with a message) when out of memory. */
static inline void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if ((size_t)(a->end - a->cur) < n)
        return arena_alloc_slow(a, n);
    void *p = a->cur;     /* chunks are zero-filled when obtained */
    a->cur += n;
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

#endif
