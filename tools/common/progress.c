/* progress.c — see progress.h. */
#include "tools/common/progress.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tools/common/optimize.h"

void format_clock(char *buf, size_t n, double s)
{
    if (s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, n, "%02ld:%02ld", t / 60, t % 60);
}

static int term_width(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
    return 80;
}

void progress_start(Progress *p, FILE *out, int total, size_t total_bytes, bool quiet)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = isatty(fileno(out));
    p->quiet = quiet;
    p->total = total;
    p->total_bytes = total_bytes;
    p->start = now_ms();
}

static void clear_bar(Progress *p)
{
    if (p->drawn) fputs("\r\033[K", p->out);
    p->drawn = false;
}

static void draw_bar(Progress *p)
{
    double el = (now_ms() - p->start) / 1e3;
    double mbs = el > 0 ? p->done_bytes / 1e6 / el : 0;
    char elapsed[16], eta[16] = "--:--";
    format_clock(elapsed, sizeof elapsed, el);
    if (p->done_bytes && p->total_bytes > p->done_bytes)
        format_clock(eta, sizeof eta, el * (double)(p->total_bytes - p->done_bytes) / (double)p->done_bytes);
    else if (p->done == p->total)
        format_clock(eta, sizeof eta, 0);
    char tail[160];
    int tl = snprintf(tail, sizeof tail, " %d/%d files  %.1f MB/s  %s elapsed  ETA %s", p->done, p->total, mbs,
                      elapsed, eta);
    if (p->failed) tl += snprintf(tail + tl, sizeof tail - (size_t)tl, "  %d failed", p->failed);
    /* a bar of fixed width, so it does not jitter as the numbers change */
    int width = term_width(p->out) - 70;
    if (width > 40) width = 40;
    if (width < 5) width = 5;
    fputs("\r[", p->out);
    if (width >= 5) {
        int fill = p->total ? (int)((double)width * p->done / p->total) : width;
        for (int i = 0; i < width; i++) fputc(i < fill ? '#' : '.', p->out);
    }
    fprintf(p->out, "]%s\033[K", tail);
    fflush(p->out);
    p->drawn = true;
    p->last_draw = now_ms();
}

void progress_file(Progress *p, const char *path, const char *what, const char *error, size_t bytes)
{
    p->done++;
    p->done_bytes += bytes;
    bool failed = strcmp(what, "FAILED") == 0;
    if (failed) p->failed++;
    if (p->quiet) return;
    if (!p->tty) {
        int w = 1;
        for (int t = p->total; t >= 10; t /= 10) w++;
        fprintf(p->out, "ptxopt: [%*d/%d] %-9s %s%s%s\n", w, p->done, p->total, what, path, error ? ": " : "",
                error ? error : "");
        fflush(p->out);
        return;
    }
    if (failed) {
        clear_bar(p);
        fprintf(p->out, "ptxopt: FAILED %s: %s\n", path, error ? error : "");
    }
    if (failed || p->done == p->total || now_ms() - p->last_draw >= 100) draw_bar(p);
}

void progress_message(Progress *p, const char *text, size_t len)
{
    clear_bar(p);
    fwrite(text, 1, len, p->out);
    if (len && text[len - 1] != '\n') fputc('\n', p->out);
    fflush(p->out);
}

void progress_finish(Progress *p)
{
    if (p->quiet || !p->tty) return;
    if (p->total && !p->drawn) draw_bar(p);
    if (p->drawn) fputc('\n', p->out);
    p->drawn = false;
    fflush(p->out);
}
