/* json_read.h — a small JSON reader: text to a tree of values.
 *
 * For reading back what ptxopt's programs wrote (ptxopt-tune --resume reads
 * its own report).  The whole of RFC 8259: objects (members kept in order),
 * arrays, strings (escapes and \u surrogate pairs decoded to UTF-8; a NUL
 * inside a string is refused), numbers (as double), true, false, null.
 * Nesting is limited (JSON_MAX_DEPTH) so that no input can exhaust the
 * stack; an error gives the line and column. */
#ifndef PTXOPT_JSON_READ_H
#define PTXOPT_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 64

typedef enum JsonKind { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct JsonValue JsonValue;
struct JsonValue {
    JsonKind kind;
    double number;
    char *string;               /* JSON_STRING */
    int n;                      /* array items or object members */
    JsonValue **items;          /* JSON_ARRAY, JSON_OBJECT (values) */
    char **keys;                /* JSON_OBJECT */
};

/* Parses text[0..len); NULL after writing "LINE:COL: why" to err. */
JsonValue *json_parse(const char *text, size_t len, char *err, size_t errsz);
void json_free(JsonValue *v);

/* The member `key` of an object (the first one), or NULL (also when v is
 * NULL or not an object). */
const JsonValue *json_get(const JsonValue *v, const char *key);
/* The string of v, or NULL when v is not a string. */
const char *json_str(const JsonValue *v);

#endif
