/* nvcc_info.h — what the nvcc that started this ptxas was asked to do.
 *
 * nvcc gives ptxas its own temporary files (/tmp/tmpxft_..._6_k.ptx), so a
 * report of the ptxas run alone cannot say which of the user's files it
 * was for.  ptxopt-nvcc knows: it puts the nvcc command line, as the user
 * typed it, in $PTXOPT_NVCC_ARGV (words quoted as in $PTXOPT_FLAGS).
 * From it: the sources (the arguments with a source suffix that are not an
 * option's value), the output (-o), whether it writes a file per source
 * (-c, -dc, -ptx, -cubin, ...) and the targets (-arch, -code, -gencode
 * values).  A
 * ptxas input is matched to its source by name: nvcc names its PTX
 * tmpxft_<id>-<n>_<source base>[.<virtual arch>].ptx. */
#ifndef PTXOPT_NVCC_INFO_H
#define PTXOPT_NVCC_INFO_H

#include <stdbool.h>
#include <stddef.h>

#define PTXOPT_NVCC_ARGV_ENV "PTXOPT_NVCC_ARGV"

typedef struct NvccInfo {
    char **argv;            /* the command line (argv[0] included) */
    int argc;
    char **sources;
    int nsources;
    char *output;           /* -o's value, or NULL */
    const char *out_suffix; /* -c, -dc: ".o"; -ptx: ".ptx"; ...: a file per source; NULL: it links */
    char **targets;         /* -arch, -code and -gencode values, as given */
    int ntargets;
} NvccInfo;

/* From $PTXOPT_NVCC_ARGV; false (info zeroed) when it is not set. */
bool nvcc_info_load(NvccInfo *info);
void nvcc_info_free(NvccInfo *info);

/* The source that the ptxas input `ptx` (a path) was made from: the one
 * source whose base name it carries, or the only source; NULL when that
 * cannot be told. */
const char *nvcc_info_source_for(const NvccInfo *info, const char *ptx);

/* The file nvcc writes for `source` when it writes one per source (-o,
 * else the source's base name with .o, .ptx, ...), malloc'ed; NULL when
 * it links. */
char *nvcc_info_object_for(const NvccInfo *info, const char *source);

#endif
