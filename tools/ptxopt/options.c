/* options.c — parse ptxopt's command line (see options.h and man/ptxopt.1). */
#include "tools/ptxopt/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "opt/pass.h"

void options_usage(FILE *out)
{
    fprintf(out,
"Usage: ptxopt [OPTION]... FILE... [-o OUT]\n"
"  or:  ptxopt [OPTION]... --output-dir=DIR|--in-place FILE|DIR...\n"
"Optimize PTX for NVIDIA GPUs: read PTX, apply warp-level passes, print PTX.\n"
"With no passes the output is byte-identical to the input.  FILE may be '-'\n"
"for standard input.\n"
"\n"
"  -o, --output=OUT        write the result to OUT ('-' for standard output,\n"
"                          the default); written atomically (temp + rename)\n"
"  -p, --passes=PIPELINE   run passes, LLVM opt syntax:\n"
"                          name,name<key=value;key=value>\n"
"      --target=sm_XX      treat the module as targeting sm_XX (rewrites the\n"
"                          .target directive)\n"
"      --canonical         print every statement in the canonical style\n"
"      --stats             print functions, blocks, instructions and timings\n"
"                          to standard error\n"
"      --remarks           print what each pass did and why not (to stderr)\n"
"      --report=FILE       write the remarks as JSON to FILE\n"
"      --sass-report[=FILE]\n"
"                          assemble the input and the result (ptxas, for\n"
"                          --target or the module's .target), disassemble\n"
"                          them (nvdisasm) and print per kernel one line of\n"
"                          SASS instruction classes, registers and spills,\n"
"                          before->after, then a summary line per file; to\n"
"                          FILE (written atomically) or standard error; with\n"
"                          --report also in the JSON.  Slow: ptxas runs twice\n"
"                          per file.  Batch mode too (opt-in)\n"
"\n"
"Analyses (for people debugging a pass; after the passes, instead of PTX):\n"
"      --dump=WHAT         print an analysis: cfg, dom, postdom, loops, ssa,\n"
"                          liveness, uniform or terms\n"
"      --kernel=NAME       only this function's dump\n"
"      --dump-format=FMT   text (the default) or dot (Graphviz)\n"
"      --verify-ir         mirror each function's CFG and SSA overlay into LLVM\n"
"                          and run LLVM's verifier; a disagreement is an\n"
"                          internal error (exit status 3)\n"
"\n"
"  -h, --help              display this help and exit\n"
"  -V, --version           output version information and exit\n"
"\n"
"Batch mode (many files in parallel; DIR arguments are searched for *.ptx):\n"
"      --output-dir=DIR    write each result under DIR, keeping the paths\n"
"                          relative to the DIR argument it was found in\n"
"      --in-place          replace each input that changed (atomically)\n"
"  -j, --jobs=N            process N files at a time (default: one per CPU)\n"
"      --timeout=SECONDS   give up on a file after SECONDS (default: never)\n"
"  -q, --quiet             no progress bar or progress lines\n"
"  with --report, the JSON holds per-file, per-kernel remarks and a summary\n"
"\n"
"Passes:\n");
    if (!pass_count()) fprintf(out, "  (none yet)\n");
    for (int i = 0; i < pass_count(); i++)
        fprintf(out, "  %-22s  %s\n", pass_at(i)->name, pass_at(i)->summary);
    fprintf(out,
"\n"
"Exit status: 0 success, 1 bad input, 2 usage error, 3 internal error\n"
"(in batch mode: the worst over all files; one bad file does not stop the rest).\n"
"See ptxopt(1) and ptxopt-passes(7).\n");
}

int options_parse(int argc, char **argv, Options *o)
{
    enum { OPT_TARGET = 256, OPT_CANONICAL, OPT_STATS, OPT_REMARKS, OPT_REPORT, OPT_OUTPUT_DIR,
           OPT_IN_PLACE, OPT_TIMEOUT, OPT_DUMP, OPT_KERNEL, OPT_DUMP_FORMAT, OPT_VERIFY_IR, OPT_SASS_REPORT };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "passes", required_argument, NULL, 'p' },
        { "target", required_argument, NULL, OPT_TARGET },
        { "canonical", no_argument, NULL, OPT_CANONICAL },
        { "stats", no_argument, NULL, OPT_STATS },
        { "remarks", no_argument, NULL, OPT_REMARKS },
        { "report", required_argument, NULL, OPT_REPORT },
        { "sass-report", optional_argument, NULL, OPT_SASS_REPORT },
        { "output-dir", required_argument, NULL, OPT_OUTPUT_DIR },
        { "in-place", no_argument, NULL, OPT_IN_PLACE },
        { "jobs", required_argument, NULL, 'j' },
        { "timeout", required_argument, NULL, OPT_TIMEOUT },
        { "dump", required_argument, NULL, OPT_DUMP },
        { "kernel", required_argument, NULL, OPT_KERNEL },
        { "dump-format", required_argument, NULL, OPT_DUMP_FORMAT },
        { "verify-ir", no_argument, NULL, OPT_VERIFY_IR },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:p:j:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case 'p': o->passes = optarg; break;
        case OPT_TARGET: {
            const char *t = optarg;
            char *end;
            if (strncmp(t, "sm_", 3) != 0 || (o->target_sm = (int)strtol(t + 3, &end, 10)) < 10 ||
                (*end && strcmp(end, "a") && strcmp(end, "f"))) {
                fprintf(stderr, "ptxopt: invalid --target '%s' (expected sm_XX, e.g. sm_80)\n", t);
                return EXIT_USAGE;
            }
            o->target = t;
            break;
        }
        case OPT_CANONICAL: o->canonical = true; break;
        case OPT_STATS: o->stats = true; break;
        case OPT_REMARKS: o->remarks = true; break;
        case OPT_REPORT: o->report = optarg; break;
        case OPT_SASS_REPORT:
            o->sass = true;
            o->sass_file = optarg && *optarg ? optarg : NULL;
            break;
        case OPT_OUTPUT_DIR: o->output_dir = optarg; break;
        case OPT_IN_PLACE: o->in_place = true; break;
        case OPT_DUMP: o->dump = optarg; break;
        case OPT_KERNEL: o->kernel = optarg; break;
        case OPT_DUMP_FORMAT:
            if (strcmp(optarg, "text") != 0 && strcmp(optarg, "dot") != 0) {
                fprintf(stderr, "ptxopt: invalid --dump-format '%s' (expected text or dot)\n", optarg);
                return EXIT_USAGE;
            }
            o->dump_format = optarg;
            break;
        case OPT_VERIFY_IR: o->verify_ir = true; break;
        case 'q': o->quiet = true; break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || end == optarg || n < 1 || n > 1024) {
                fprintf(stderr, "ptxopt: invalid --jobs '%s' (expected a number from 1 to 1024)\n", optarg);
                return EXIT_USAGE;
            }
            o->jobs = (int)n;
            break;
        }
        case OPT_TIMEOUT: {
            char *end;
            double t = strtod(optarg, &end);
            if (*end || end == optarg || !(t >= 0) || t > 1e6) {
                fprintf(stderr, "ptxopt: invalid --timeout '%s' (expected seconds, e.g. 30 or 0.5)\n", optarg);
                return EXIT_USAGE;
            }
            o->timeout = t;
            break;
        }
        case 'h': options_usage(stdout); return EXIT_OK;
        case 'V':
            printf("ptxopt %s\n", PACKAGE_VERSION);
            return EXIT_OK;
        case ':':
            fprintf(stderr, "ptxopt: option '%s' requires an argument\n", argv[optind - 1]);
            fprintf(stderr, "Try 'ptxopt --help' for more information.\n");
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptxopt: unrecognized option '%s'\n", argv[optind - 1]);
            fprintf(stderr, "Try 'ptxopt --help' for more information.\n");
            return EXIT_USAGE;
        }
    }
    o->ninputs = argc - optind;
    o->inputs = argv + optind;
    if (o->ninputs == 0) {
        fprintf(stderr, "ptxopt: no input files\nTry 'ptxopt --help' for more information.\n");
        return EXIT_USAGE;
    }
    o->batch = o->output_dir || o->in_place;
    if (o->output_dir && o->in_place) {
        fprintf(stderr, "ptxopt: --output-dir and --in-place exclude each other\n");
        return EXIT_USAGE;
    }
    if (o->batch && o->output) {
        fprintf(stderr, "ptxopt: -o cannot be combined with %s\n", o->in_place ? "--in-place" : "--output-dir");
        return EXIT_USAGE;
    }
    if (!o->batch && (o->jobs || o->timeout > 0)) {
        fprintf(stderr, "ptxopt: %s needs batch mode (--output-dir or --in-place)\n", o->jobs ? "--jobs" : "--timeout");
        return EXIT_USAGE;
    }
    if (o->batch && (o->dump || o->verify_ir)) {
        fprintf(stderr, "ptxopt: %s cannot be combined with batch mode\n", o->dump ? "--dump" : "--verify-ir");
        return EXIT_USAGE;
    }
    if (o->sass && (o->dump || o->verify_ir)) {
        fprintf(stderr, "ptxopt: --sass-report cannot be combined with %s\n", o->dump ? "--dump" : "--verify-ir");
        return EXIT_USAGE;
    }
    if ((o->kernel || o->dump_format) && !o->dump) {
        fprintf(stderr, "ptxopt: %s needs --dump\n", o->kernel ? "--kernel" : "--dump-format");
        return EXIT_USAGE;
    }
    if (o->ninputs > 1 && o->output && strcmp(o->output, "-") != 0) {
        fprintf(stderr, "ptxopt: -o names one output file but %d inputs were given\n", o->ninputs);
        return EXIT_USAGE;
    }
    return -1;
}
