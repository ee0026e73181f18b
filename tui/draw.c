/*
 * draw.c — the screen: layout, panes, status and hint lines, themes, and
 * putting the terminal back however genie ends.
 *
 * Layout.  On 100 columns and more the conversation takes the left three
 * fifths and the worksheet and SUQL panes share the right column; on a
 * narrower terminal one pane shows at a time under a tab bar (Tab
 * switches).  Below the panes: the status line, the input (1 to 5 rows),
 * the key hint.  Under 30x8 only a "too small" notice is drawn.
 *
 * Every frame is drawn whole onto stdscr and ncurses sends only what
 * changed; the conversation draws just its visible lines, found from the
 * bottom, so a long conversation costs no more per frame than a short one.
 *
 * The terminal is restored on every exit: endwin on the normal path, and
 * for fatal signals a handler that writes the saved terminal modes back
 * and leaves the alternate screen with async-signal-safe calls only.
 */
#include "app.h"

#include "util/check.h"
#include "util/clock.h"

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* ---- themes ------------------------------------------------------------- */

/* Per style: foreground (-1 default) and attributes, for dark and light
 * backgrounds; mono takes the attributes only (and mono_attr). */
typedef struct style_def {
    short dark, light;
    attr_t attr, mono;
} style_def;

static const style_def styles[TX__COUNT] = {
    [TX_PLAIN] = { -1, -1, A_NORMAL, A_NORMAL },
    [TX_BOLD] = { -1, -1, A_BOLD, A_BOLD },
    [TX_ITALIC] = { -1, -1, A_ITALIC, A_UNDERLINE },
    [TX_CODE] = { COLOR_CYAN, COLOR_MAGENTA, A_NORMAL, A_UNDERLINE },
    [TX_HEADING] = { COLOR_YELLOW, COLOR_BLUE, A_BOLD, A_BOLD },
    [TX_DIM] = { -1, -1, A_DIM, A_DIM },
    [TX_USER] = { -1, -1, A_BOLD, A_BOLD },
    [TX_USER_LABEL] = { COLOR_CYAN, COLOR_BLUE, A_BOLD, A_BOLD },
    [TX_AGENT_LABEL] = { COLOR_GREEN, COLOR_GREEN, A_BOLD, A_BOLD },
    [TX_NOTE] = { -1, -1, A_DIM, A_DIM },
    [TX_ERROR] = { COLOR_RED, COLOR_RED, A_BOLD, A_BOLD },
    [TX_WARN] = { COLOR_YELLOW, COLOR_MAGENTA, A_NORMAL, A_UNDERLINE },
    [TX_KEYWORD] = { COLOR_BLUE, COLOR_BLUE, A_BOLD, A_BOLD },
    [TX_STRING] = { COLOR_GREEN, COLOR_GREEN, A_NORMAL, A_NORMAL },
    [TX_NUMBER] = { COLOR_MAGENTA, COLOR_MAGENTA, A_NORMAL, A_NORMAL },
    [TX_FUNC] = { COLOR_YELLOW, COLOR_RED, A_BOLD, A_BOLD },
    [TX_CHANGED] = { COLOR_YELLOW, COLOR_MAGENTA, A_BOLD, A_REVERSE },
    [TX_MISSING] = { COLOR_RED, COLOR_RED, A_NORMAL, A_BOLD },
    [TX_CONFIRM] = { COLOR_MAGENTA, COLOR_MAGENTA, A_NORMAL, A_UNDERLINE },
    [TX_DONE] = { COLOR_GREEN, COLOR_GREEN, A_NORMAL, A_NORMAL },
    [TX_FIELD] = { COLOR_CYAN, COLOR_BLUE, A_NORMAL, A_NORMAL },
};

static attr_t style_attr[TX__COUNT];
static int g_theme;

static void theme_init(int theme)
{
    g_theme = theme;
    int color = theme != 2 && has_colors() && start_color() == OK;
    if (color) use_default_colors();
    for (int i = 0; i < TX__COUNT; i++) {
        if (!color) {
            style_attr[i] = styles[i].mono;
            continue;
        }
        short fg = theme == 1 ? styles[i].light : styles[i].dark;
        init_pair((short)(i + 1), fg, -1);
        style_attr[i] = styles[i].attr | (attr_t)COLOR_PAIR(i + 1);
    }
}

/* ---- terminal restore ------------------------------------------------------ */

static struct termios g_saved;
static int g_have_saved;
static SCREEN *g_screen;

/* Async-signal-safe: the modes from before curses, the normal screen and
 * cursor, no mouse, no bracketed paste. */
static void restore_raw(void)
{
    static const char seq[] = "\033[?1000l\033[?1002l\033[?1006l\033[?2004l\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t r = write(STDOUT_FILENO, seq, sizeof seq - 1);
    (void)r;
    if (g_have_saved) tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
}

static void on_fatal(int sig)
{
    restore_raw();
    signal(sig, SIG_DFL);
    raise(sig);
}

int draw_start(app *a)
{
    /* Every signal whose default ends the process and that genie does not
     * handle itself (app.c takes SIGTERM, SIGHUP, SIGINT, SIGQUIT): the
     * terminal is put back first. */
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXFSZ, SIGXCPU,
                                 SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGSYS, SIGTRAP };
    if (tcgetattr(STDIN_FILENO, &g_saved) == 0) g_have_saved = 1;
    if (!(g_screen = newterm(NULL, stdout, stdin))) return -1;
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
        struct sigaction sa = { 0 };
        sa.sa_handler = on_fatal;
        sigaction(fatal[i], &sa, NULL);
    }
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    /* The wheel scrolls a pane, a click chooses a message to copy;
     * --no-mouse leaves the mouse to the terminal (a plain drag selects). */
    if (!cfg_bool(a->c, OPT_NO_MOUSE))
        mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    theme_init(a->theme);
    fputs("\033[?2004h", stdout);          /* bracketed paste */
    fflush(stdout);
    return 0;
}

void draw_end(void)
{
    fputs("\033[?2004l", stdout);
    fflush(stdout);
    endwin();
    delscreen(g_screen);
    g_screen = NULL;
    if (g_have_saved) tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
}

/* ---- layout --------------------------------------------------------------------- */

enum { MIN_ROWS = 8, MIN_COLS = 30, WIDE = 100 };

void draw_layout(app *a)
{
    getmaxyx(stdscr, a->rows, a->cols);
    int R = a->rows, C = a->cols;
    int in_rows = input_rows(a, C - 2);
    a->hint = (app_rect){ R - 1, 0, 1, C };
    a->input = (app_rect){ R - 1 - in_rows, 0, in_rows, C };
    a->status = (app_rect){ a->input.y - 1, 0, 1, C };
    int top = a->status.y;                 /* rows 0..top-1 hold the panes */
    a->tabs = C < WIDE;
    if (a->tabs) {
        for (int p = 0; p < PANE__COUNT; p++) a->pane[p] = (app_rect){ 1, 0, top - 1, C };
    } else {
        int lw = C * 3 / 5;
        int wh = (top - 2) * 11 / 20;
        a->pane[PANE_CONV] = (app_rect){ 1, 0, top - 1, lw };
        a->pane[PANE_WS] = (app_rect){ 1, lw + 2, wh, C - lw - 2 };
        a->pane[PANE_SUQL] = (app_rect){ wh + 2, lw + 2, top - wh - 2, C - lw - 2 };
    }
    for (int p = 0; p < PANE__COUNT; p++) if (a->pane[p].h < 0) a->pane[p].h = 0;
    a->ws_dirty = a->q_dirty = 1;
}

int draw_msg_at(const app *a, int y)
{
    const app_rect *r = &a->pane[PANE_CONV];
    if (y < r->y || y >= r->y + r->h) return -1;
    /* The pane as draw_lines shows it, from the bottom. */
    long first = a->conv.total - r->h - a->scroll[PANE_CONV].off;
    if (first < 0) first = 0;
    long line = first + (y - r->y);
    if (line >= a->conv.total) return -1;
    long at = 0;
    for (int k = 0; k < a->conv.n; k++) {
        at += a->conv.m[k]->lines.n;
        if (line < at) return k;
    }
    return -1;
}

int draw_pane_at(const app *a, int y, int x)
{
    for (int p = 0; p < PANE__COUNT; p++) {
        const app_rect *r = &a->pane[p];
        if (a->tabs && p != a->focus) continue;
        if (y >= r->y - 1 && y < r->y + r->h && x >= r->x && x < r->x + r->w) return p;
    }
    return -1;
}

/* ---- drawing lines ------------------------------------------------------------------ */

/* Draw the character CP, K bytes at S: as its ASCII stand-in when the
 * locale cannot show it (tx_set_ascii), a malformed byte as "?". */
static void put_char(const char *s, int k, unsigned cp)
{
    if (cp >= 0x80 && tx_ascii()) addstr(tx_ascii_for(cp));
    else if (cp == 0xFFFD && k == 1) addstr("?");
    else addnstr(s, k);
}

/* Draw the short text S (a glyph, a prompt) at Y, X. */
static void put_glyphs(int y, int x, const char *s)
{
    move(y, x);
    for (int i = 0, n = (int)strlen(s); i < n;) {
        unsigned cp;
        int k = tx_decode(s + i, n - i, &cp);
        put_char(s + i, k, cp);
        i += k;
    }
}

/* Draw L at Y, X, at most W columns, then clear to W.  A line without
 * styles (st NULL) is drawn in STYLE. */
static void put_styled(int y, int x, int w, const tx_line *l, int style, attr_t extra)
{
    move(y, x);
    int col = 0;
    if (l) {
        for (int i = 0; i < l->len && col < w;) {
            unsigned cp;
            int k = tx_decode(l->s + i, l->len - i, &cp);
            int cw = tx_cpwidth(cp);
            if (col + cw > w) break;
            int st = l->st ? l->st[i] : style;
            attrset(style_attr[st < TX__COUNT ? st : 0] | extra);
            if (!tx_drawn(cp)) {
                i += k;
                continue;
            }
            put_char(l->s + i, k, cp);
            col += cw;
            i += k;
        }
    }
    GN_ASSERT(col <= w);                  /* a pane never draws past its width */
    attrset(extra);
    for (; col < w; col++) addch(' ');
    attrset(A_NORMAL);
}

static void put_line(int y, int x, int w, const tx_line *l, attr_t extra)
{
    put_styled(y, x, w, l, TX_PLAIN, extra);
}

/* Draw the text S in STYLE (no copy: the status and hint lines are drawn
 * every frame). */
static void put_text(int y, int x, int w, const char *s, int style, attr_t extra)
{
    tx_line l = { (char *)s, NULL, (int)strlen(s), 0 };
    put_styled(y, x, w, &l, style, extra);
}

/* The title bar of pane P (wide layout), or the tab bar (narrow). */
static void titles(app *a)
{
    static const char *const names[PANE__COUNT] = { "Conversation", "Worksheet", "SUQL" };
    if (a->tabs) {
        move(0, 0);
        attrset(A_NORMAL);
        for (int x = 0; x < a->cols; x++) addch(' ');
        move(0, 0);
        for (int p = 0; p < PANE__COUNT; p++) {
            attrset(p == a->focus ? A_REVERSE | A_BOLD : style_attr[TX_DIM]);
            printw(" %s%s ", names[p], a->scroll[p].unseen ? " *" : "");
            attrset(A_NORMAL);
            if (p + 1 < PANE__COUNT) addstr(" ");
        }
        return;
    }
    for (int p = 0; p < PANE__COUNT; p++) {
        app_rect *r = &a->pane[p];
        char t[64];
        snprintf(t, sizeof t, " %s%s", names[p], a->scroll[p].unseen ? " *" : "");
        put_text(r->y - 1, r->x, r->w, t, TX_BOLD, p == a->focus ? A_REVERSE : A_UNDERLINE);
    }
    /* The column between the conversation and the right panes. */
    attrset(style_attr[TX_DIM]);
    int x = a->pane[PANE_CONV].w;
    for (int y = 0; y < a->status.y; y++) put_glyphs(y, x, "\xe2\x94\x82");   /* "│" */
    attrset(A_NORMAL);
}

/* Draw the lines of a pane: COUNT lines, LINE(i) gives one; scrolled as
 * S says, from the bottom when BOTTOM; lines HL_FROM..HL_TO-1 reversed
 * (the message chosen for copying). */
typedef const tx_line *(*line_fn)(const void *src, long i);

static void draw_lines(const app_rect *r, app_scroll *s, int bottom, long count, line_fn line,
                       const void *src, long hl_from, long hl_to)
{
    long maxoff = count > r->h ? count - r->h : 0;
    if (s->off > maxoff) s->off = maxoff;
    if (s->off < 0) s->off = 0;
    if (bottom && !s->off) s->unseen = 0;
    long first = bottom ? count - r->h - s->off : s->off;
    if (first < 0) first = 0;
    for (int y = 0; y < r->h; y++) {
        long i = first + y;
        put_line(r->y + y, r->x, r->w, i < count ? line(src, i) : NULL,
                 i >= hl_from && i < hl_to ? A_REVERSE : A_NORMAL);
    }
    if (bottom && s->off && r->h > 0) {
        const char *m = s->unseen ? " \xe2\x86\x93 new output (End: back to it) " : " \xe2\x86\x93 more below ";
        int w = tx_width(m, (int)strlen(m));
        if (w <= r->w) put_text(r->y + r->h - 1, r->x + r->w - w, w, m, TX_BOLD, A_REVERSE);
    }
    if (!bottom && r->h > 1) {                 /* read from the top: hidden lines either side */
        s->unseen = 0;
        static const char up[] = " \xe2\x86\x91 more above ", down[] = " \xe2\x86\x93 more below ";
        int w = tx_width(up, (int)strlen(up));
        if (first > 0 && w <= r->w) put_text(r->y, r->x + r->w - w, w, up, TX_BOLD, A_REVERSE);
        if (first + r->h < count && w <= r->w)
            put_text(r->y + r->h - 1, r->x + r->w - w, w, down, TX_BOLD, A_REVERSE);
    }
}

/* Scroll a pane read from the top so lines FIRST..LAST show in its H
 * rows: all of them when they fit, else their start. */
static void follow(app_scroll *s, int h, int first, int last)
{
    if (first < 0 || h <= 0) return;
    if (last - s->off >= h) s->off = last - h + 1;
    if (first < s->off) s->off = first;
}

static const tx_line *conv_line(const void *src, long i) { return vc_line(src, i); }
static const tx_line *list_line(const void *src, long i) { return &((const tx_lines *)src)->v[i]; }

static void panes(app *a)
{
    for (int p = 0; p < PANE__COUNT; p++) {
        if (a->tabs && p != a->focus) continue;
        app_rect *r = &a->pane[p];
        if (p == PANE_CONV) {
            vc_layout(&a->conv, r->w - 1);
            long from = -1, to = -1;
            if (a->sel >= 0 && a->sel < a->conv.n) {
                /* The chosen message in view: its end, and its start
                 * when it is taller than the pane. */
                from = vc_first_line(&a->conv, a->sel);
                to = from + a->conv.m[a->sel]->lines.n;
                app_scroll *sc = &a->scroll[p];
                if (to > a->conv.total - sc->off) sc->off = a->conv.total - to;
                if (from < a->conv.total - r->h - sc->off) sc->off = a->conv.total - r->h - from;
                if (sc->off < 0) sc->off = 0;
            }
            draw_lines(r, &a->scroll[p], 1, a->conv.total, conv_line, &a->conv, from, to);
        } else if (p == PANE_WS) {
            if (a->ws_dirty || a->ws_width != r->w) {
                int first, last;
                tx_lines_clear(&a->ws_lines);
                vw_render_focus(a->ch.agent->spec, a->state, r->w - 1, &a->ws_lines, &first, &last);
                a->ws_width = r->w;
                a->ws_dirty = 0;
                if (a->ws_follow) follow(&a->scroll[p], r->h, first, last);
                a->ws_follow = 0;
            }
            draw_lines(r, &a->scroll[p], 0, a->ws_lines.n, list_line, &a->ws_lines, -1, -1);
        } else {
            if (a->q_dirty || a->q_width != r->w) {
                tx_lines_clear(&a->q_lines);
                vq_render(&a->q, r->w - 1, &a->q_lines);
                a->q_width = r->w;
                a->q_dirty = 0;
            }
            draw_lines(r, &a->scroll[p], 1, a->q_lines.n, list_line, &a->q_lines, -1, -1);
        }
    }
}

void draw_scroll(app *a, int p, long n)
{
    if (p < 0 || p >= PANE__COUNT) return;
    /* Panes read from the bottom scroll up with positive N, the
     * worksheet (read from the top) down. */
    a->scroll[p].off += p == PANE_WS ? -n : n;
    if (a->scroll[p].off < 0) a->scroll[p].off = 0;
    a->dirty = 1;
}

/* ---- status, input, hint ------------------------------------------------------------- */

static const char spinner[] = "|/-\\";

/* The status line's right side, most important first: the last turn's
 * tokens ("~" when the server reported none for some call and they are
 * estimated; or "from the cache"), its cost and time, the conversation's
 * cost.  Returns how many parts. */
static int usage_parts(const app *a, char parts[3][96])
{
    const llm_stats *l = &a->last;
    int n = 0;
    long tok = l->prompt_tokens + l->completion_tokens;
    if (!l->calls && l->cache_hits) snprintf(parts[n++], 96, "last: from the cache");
    else if (tok > 0) snprintf(parts[n++], 96, "last: %s%ld tok", l->usage_missing ? "~" : "", tok);
    else if (a->last_ms > 0 && !a->test) snprintf(parts[n++], 96, "last:");
    if (n) {
        char *p = parts[n - 1];
        if (l->priced_calls) snprintf(p + strlen(p), 96 - strlen(p), ", $%.4f", l->cost);
        if (a->last_ms > 0 && !a->test) snprintf(p + strlen(p), 96 - strlen(p), "%s %.1f s",
                                                 p[strlen(p) - 1] == ':' ? "" : ",", a->last_ms / 1000.0);
    }
    if (a->sess.priced_calls) snprintf(parts[n++], 96, "session $%.4f", a->sess.cost);
    return n;
}

static void status_line(app *a)
{
    char s[768], right[128] = "";
    const char *what = a->activity[0] ? a->activity
                     : genie_kb_loading(&a->ch.kb) ? "ready (the search index is loading)" : "ready";
    char act[200];
    if (a->retry_at > 0) {                  /* activity holds the reason */
        double left = a->retry_at - gn_now();
        if (left < 0) left = 0;
        if (a->test) snprintf(act, sizeof act, "retrying (%s)", a->activity);
        else snprintf(act, sizeof act, "retrying in %.0f s (%s)", left + 0.49, a->activity);
        what = act;
    }
    /* The endpoint as a host and path: scheme and /chat/completions add
     * nothing a person needs on one line. */
    char model[400], host[200] = "";
    if (a->ch.kb.cl) {
        const char *u = genie_chat_endpoint(&a->ch);
        const char *p = strstr(u, "://");
        snprintf(host, sizeof host, "%s", p ? p + 3 : u);
        char *cc = strstr(host, "/chat/completions");
        if (cc) *cc = 0;
        snprintf(model, sizeof model, "%s @ %s", genie_chat_model(&a->ch), host);
    } else {
        snprintf(model, sizeof model, "offline");
    }
    char spin[8] = "", elapsed[32] = "";
    if (a->job) snprintf(spin, sizeof spin, "%c ", a->test ? '*' : spinner[(int)(gn_now() * 8) % 4]);
    if (a->job && !a->test && gn_now() - a->job_t0 >= 1)
        snprintf(elapsed, sizeof elapsed, " %ld s", (long)(gn_now() - a->job_t0));
    snprintf(s, sizeof s, " %s \xc2\xb7 %s \xc2\xb7 %s%s%s", a->ch.agent->name, model, spin, what, elapsed);
    /* The right side, its parts dropped from the last until the whole
     * left side fits beside it: what is happening matters more than the
     * last turn's figures, and the two never run into each other. */
    char parts[3][96];
    int np = usage_parts(a, parts);
    int need = tx_width(s, (int)strlen(s)) + 1;
    int lw = a->cols, rw = 0;
    while (np > 0) {
        right[0] = 0;
        for (int i = 0; i < np; i++)
            snprintf(right + strlen(right), sizeof right - strlen(right), "%s%s", i ? " \xc2\xb7 " : "",
                     parts[i]);
        strcat(right, " ");
        rw = tx_width(right, (int)strlen(right));
        lw = a->cols - rw;
        if (lw >= need) break;
        np--;
        rw = 0;
        lw = a->cols;
    }
    put_text(a->status.y, 0, lw, s, TX_PLAIN, A_REVERSE);
    if (rw) put_text(a->status.y, lw, rw, right, TX_PLAIN, A_REVERSE);
}

static void hint_line(app *a)
{
    const char *h, *search = input_search();
    char sh[320];
    if (search) {
        int n = (int)strlen(search);
        while (n && search[n - 1] == ' ') n--;
        snprintf(sh, sizeof sh, "%.*s \xc2\xb7 Ctrl-R older \xc2\xb7 Enter takes it \xc2\xb7 Ctrl-G cancels",
                 n, search);
        h = sh;
    } else if (a->notice[0]) h = a->notice;
    else if (a->ctrl_c) h = "Press Ctrl-C again to quit.";
    else if (a->sel >= 0) h = "copy: Up/Down choose \xc2\xb7 y copy it \xc2\xb7 c copy its code \xc2\xb7 Esc done";
    else if (a->job) h = "Ctrl-C cancel \xc2\xb7 Tab focus \xc2\xb7 PgUp/PgDn scroll \xc2\xb7 F1 help";
    else h = "Enter send \xc2\xb7 Ctrl-J newline \xc2\xb7 Tab focus \xc2\xb7 PgUp/PgDn scroll \xc2\xb7 F1 help \xc2\xb7 /quit";
    put_text(a->hint.y, 0, a->cols, h, a->notice[0] ? TX_WARN : TX_DIM, A_NORMAL);
}

/* The input: the prompt, then the text wrapped at the screen's width
 * (every character where it will be typed, wide ones included), scrolled
 * so the cursor's row shows.  Returns the cursor's position. */
static void input_area(app *a, int *cy, int *cx)
{
    int point;
    const char *t = input_text(&point);
    int n = (int)strlen(t), W = a->cols - 2;
    if (W < 4) W = 4;
    /* First pass: where the cursor falls, in rows. */
    int row = 0, col = 0, crow = 0, ccol = 0;
    for (int i = 0; i <= n;) {
        if (i == point) { crow = row; ccol = col; }
        if (i == n) break;
        unsigned cp;
        int k = tx_decode(t + i, n - i, &cp);
        int cw = cp == '\n' ? 0 : tx_cpwidth(cp);
        if (cp == '\n') { row++; col = 0; }
        else if (col + cw > W) { row++; col = cw; if (i == point) { crow = row; ccol = 0; } }
        else col += cw;
        i += k;
    }
    int h = a->input.h, skip = crow >= h ? crow - h + 1 : 0;
    for (int y = 0; y < h; y++) {
        move(a->input.y + y, 0);
        clrtoeol();
    }
    attrset(style_attr[TX_USER_LABEL]);
    /* The prompt is two columns: "› ", or "… " while a turn runs or
     * when the first rows are scrolled away (": " in ASCII). */
    const char *prompt = skip || a->job ? "\xe2\x80\xa6 " : "\xe2\x80\xba ";
    if (tx_ascii()) prompt = skip || a->job ? ": " : "> ";
    put_glyphs(a->input.y, 0, prompt);
    attrset(style_attr[TX_USER]);
    row = col = 0;
    for (int i = 0; i < n;) {
        unsigned cp;
        int k = tx_decode(t + i, n - i, &cp);
        int cw = cp == '\n' ? 0 : tx_cpwidth(cp);
        if (cp == '\n') { row++; col = 0; i += k; continue; }
        if (col + cw > W) { row++; col = 0; }
        if (row - skip >= 0 && row - skip < h && tx_drawn(cp)) {
            move(a->input.y + row - skip, 2 + col);
            put_char(t + i, k, cp);
        }
        col += cw;
        i += k;
    }
    attrset(A_NORMAL);
    *cy = a->input.y + crow - skip;
    *cx = 2 + ccol;
}

static void help_screen(app *a)
{
    gn_buf b;
    gn_buf_init(&b);
    cmd_help_text(&b);
    tx_lines l;
    tx_lines_init(&l);
    int top = a->status.y;
    /* One entry per line: "   NAME   what it does", wrapped under "what". */
    for (size_t i = 0; i < b.len;) {
        size_t e = i;
        while (e < b.len && b.data[e] != '\n') e++;
        tx_wrap(b.data + i, NULL, (int)(e - i), a->cols - 1, " ",
                b.data[i] == ' ' ? "                          " : " ", TX_PLAIN, &l);
        i = e + 1;
    }
    int h = top - 1;
    if (a->help_top > l.n - h) a->help_top = l.n - h;
    if (a->help_top < 0) a->help_top = 0;
    const char *more = a->help_top + h < l.n ? "PgDn: more, " : a->help_top ? "PgUp: back, " : "";
    char title[160];
    snprintf(title, sizeof title, " genie help \xe2\x80\x94 %sany other key closes it", more);
    put_text(0, 0, a->cols, title, TX_BOLD, A_REVERSE);
    for (int y = 1; y < top; y++) {
        int i = a->help_top + y - 1;
        put_line(y, 0, a->cols, i < l.n ? &l.v[i] : NULL, A_NORMAL);
    }
    tx_lines_release(&l);
    gn_buf_release(&b);
}

void draw_frame(app *a)
{
    int R, C;
    getmaxyx(stdscr, R, C);
    if (R != a->rows || C != a->cols || input_rows(a, C - 2) != a->input.h) draw_layout(a);
    erase();
    if (a->rows < MIN_ROWS || a->cols < MIN_COLS) {
        char m[96];
        snprintf(m, sizeof m, "terminal too small (%dx%d); genie needs %dx%d", a->cols, a->rows, MIN_COLS,
                 MIN_ROWS);
        put_text(0, 0, a->cols, m, TX_WARN, A_NORMAL);
        refresh();
        a->dirty = 0;
        return;
    }
    if (a->help) help_screen(a);
    else {
        panes(a);                 /* first: drawing a pane clears its "*" */
        titles(a);
    }
    status_line(a);
    hint_line(a);
    int cy, cx;
    input_area(a, &cy, &cx);
    move(cy, cx < a->cols ? cx : a->cols - 1);
    refresh();
    a->dirty = 0;
}

/* ---- the clipboard ------------------------------------------------------------------------ */

void draw_osc52(const char *text)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(text);
    fputs("\033]52;c;", stdout);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)text[i] << 16;
        if (i + 1 < n) v |= (unsigned char)text[i + 1] << 8;
        if (i + 2 < n) v |= (unsigned char)text[i + 2];
        char o[4] = { b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                      i + 2 < n ? b64[v & 63] : '=' };
        fwrite(o, 1, 4, stdout);
    }
    fputs("\a", stdout);
    fflush(stdout);
}
