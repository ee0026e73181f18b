/*
 * input.c — the input line: GNU readline through its callback interface,
 * inside curses.
 *
 * Readline never touches the terminal here: its terminal preparation is
 * switched off, it reads the bytes we hand it (rl_getc_function from a
 * small queue) and its redisplay only marks the screen dirty; draw.c
 * draws rl_line_buffer.  Keys that belong to the screen (PgUp/PgDn,
 * Tab outside a slash command, F1, the mouse wheel, Ctrl-C) are taken
 * before readline sees them; curses' function keys are turned back into
 * the escape sequences readline binds (arrows, Home, End, Delete).
 *
 * Multi-line input: Ctrl-J and Alt-Enter insert a newline; a bracketed
 * paste (ESC [200~ ... ESC [201~) is inserted as it is, newlines
 * included, and never sent by its own Enter.  Ctrl-X Ctrl-E (and `v` in
 * vi command mode) edits the input in $VISUAL or $EDITOR.
 *
 * History: $XDG_STATE_HOME/genie/history, private to the user, one entry
 * per line with newlines of multi-line entries written as U+2424 (␤),
 * appended as entries are made and trimmed to the last 1,000 at exit.
 */
#include "app.h"

#include "util/fs.h"
#include "util/xmem.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

enum { HISTORY_MAX = 1000 };
#define NL_MARK "\xe2\x90\xa4"         /* "␤" stands for a newline in the file */

static app *g_app;
static unsigned char g_q[256];           /* bytes for readline */
static int g_qhead, g_qlen;
static char *g_history;                  /* the history file, or NULL */
static FILE *g_null;

/* ---- readline's ends ------------------------------------------------------- */

static int q_getc(FILE *f)
{
    (void)f;
    if (!g_qlen) return EOF;
    int c = g_q[g_qhead];
    g_qhead = (g_qhead + 1) % (int)sizeof g_q;
    g_qlen--;
    return c;
}

static int q_avail(void) { return g_qlen > 0; }

static void q_feed(const char *s, int n)
{
    for (int i = 0; i < n; i++) {
        if (g_qlen == (int)sizeof g_q) break;
        g_q[(g_qhead + g_qlen) % (int)sizeof g_q] = (unsigned char)s[i];
        g_qlen++;
        rl_callback_read_char();
    }
}

static void redisplay(void)
{
    if (g_app) g_app->dirty = 1;
}

static void prep_term(int meta) { (void)meta; }
static void deprep_term(void) {}

const char *input_search(void)
{
    /* During a history search readline's prompt becomes the search's
     * ("(reverse-i-search)`kai': "); genie's own prompt is "". */
    const char *p = rl_display_prompt, *own = rl_prompt ? rl_prompt : "";
    return p && *p && strcmp(p, own) ? p : NULL;
}

const char *input_text(int *point)
{
    *point = rl_point;
    return rl_line_buffer ? rl_line_buffer : "";
}

int input_rows(const app *a, int width)
{
    (void)a;
    const char *t = rl_line_buffer ? rl_line_buffer : "";
    int n = (int)strlen(t), rows = 1, col = 0;
    if (width < 4) width = 4;
    for (int i = 0; i < n;) {
        unsigned cp;
        int k = tx_decode(t + i, n - i, &cp);
        int cw = tx_cpwidth(cp);
        if (cp == '\n') { rows++; col = 0; }
        else if (col + cw > width) { rows++; col = cw; }
        else col += cw;
        i += k;
    }
    return rows > 5 ? 5 : rows;
}

/* ---- history ----------------------------------------------------------------------- */

static char *encode_nl(const char *s)
{
    gn_buf b;
    gn_buf_init(&b);
    for (; *s; s++) {
        if (*s == '\n') gn_buf_puts(&b, NL_MARK);
        else gn_buf_putc(&b, *s);
    }
    return gn_buf_detach(&b);
}

static char *decode_nl(const char *s)
{
    gn_buf b;
    gn_buf_init(&b);
    size_t k = strlen(NL_MARK);
    while (*s) {
        if (!strncmp(s, NL_MARK, k)) { gn_buf_putc(&b, '\n'); s += k; }
        else gn_buf_putc(&b, *s++);
    }
    return gn_buf_detach(&b);
}

static void history_load(void)
{
    FILE *f = g_history ? fopen(g_history, "r") : NULL;
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = 0;
        if (!*line) continue;
        char *d = decode_nl(line);
        add_history(d);
        free(d);
    }
    free(line);
    fclose(f);
}

static void history_add(const char *s)
{
    HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
    if (!*s || (last && !strcmp(last->line, s))) return;
    add_history(s);
    if (!g_history) return;
    int fd = open(g_history, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char *e = encode_nl(s);
    size_t n = strlen(e);
    e[n] = '\n';
    ssize_t w = write(fd, e, n + 1);
    (void)w;                          /* a history that cannot be written is no loss */
    free(e);
    close(fd);
}

/* Keep the last HISTORY_MAX entries in the file (rewritten atomically). */
static void history_trim(void)
{
    if (!g_history || history_length <= 0) return;
    FILE *f = fopen(g_history, "r");
    int lines = 0, c;
    if (!f) return;
    while ((c = getc(f)) != EOF) lines += c == '\n';
    fclose(f);
    if (lines <= 2 * HISTORY_MAX) return;
    char *tmp = xasprintf("%s.tmp", g_history);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *o = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (o) {
        int from = history_length > HISTORY_MAX ? history_length - HISTORY_MAX : 0;
        for (int i = from; i < history_length; i++) {
            HIST_ENTRY *h = history_get(history_base + i);
            if (!h) continue;
            char *e = encode_nl(h->line);
            fprintf(o, "%s\n", e);
            free(e);
        }
        if (fclose(o) == 0) rename(tmp, g_history);
        else unlink(tmp);
    }
    free(tmp);
}

/* ---- the external editor ------------------------------------------------------------ */

static int edit_in_editor(int count, int key)
{
    (void)count;
    (void)key;
    const char *ed = getenv("VISUAL");
    if (!ed || !*ed) ed = getenv("EDITOR");
    if (!ed || !*ed) ed = "vi";
    const char *dir = getenv("TMPDIR");
    char *path = xasprintf("%s/genie-input-XXXXXX.md", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(path, 3);
    if (fd < 0) {
        app_notice(g_app, "cannot create a file for the editor: %s", strerror(errno));
        free(path);
        return 0;
    }
    ssize_t w = write(fd, rl_line_buffer, (size_t)rl_end);
    (void)w;
    close(fd);
    def_prog_mode();
    endwin();
    fputs("\033[?2004l", stdout);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* The user's own editor setting, which may carry arguments. */
        execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", ed, path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid > 0) while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    fputs("\033[?2004h", stdout);
    fflush(stdout);
    reset_prog_mode();
    clearok(curscr, TRUE);
    char *text = NULL;
    size_t len = 0;
    gn_err e;
    gn_err_clear(&e);
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && !gn_read_file(path, 1 << 20, &text, &len, &e)) {
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) text[--len] = 0;
        rl_replace_line(text, 0);
        rl_point = rl_end;
    } else {
        app_notice(g_app, "the editor (%s) failed; the input is unchanged", ed);
    }
    free(text);
    unlink(path);
    free(path);
    g_app->dirty = 1;
    return 0;
}

/* ---- completion ---------------------------------------------------------------------- */

static char *complete_gen(const char *text, int state)
{
    static int n;
    if (!state) n = 0;
    const char *c = cmd_complete(text, n++);
    return c ? xstrdup(c) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;
    if (start != 0 || text[0] != '/') return NULL;
    return rl_completion_matches(text, complete_gen);
}

static void show_matches(char **matches, int n, int longest)
{
    (void)longest;
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 1; i <= n; i++) gn_buf_printf(&b, "%s%s", i > 1 ? "  " : "", matches[i]);
    app_notice(g_app, "%s", b.data ? b.data : "");
    gn_buf_release(&b);
}

/* ---- lines ------------------------------------------------------------------------------ */

static void on_line(char *line)
{
    if (!line) {                        /* Ctrl-D on an empty line */
        g_app->quit = 1;
        return;
    }
    const char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (*p) history_add(line);
    if (*p == '/') cmd_run(g_app, p);
    else if (*p) app_send(g_app, line);
    free(line);
}

void input_start(app *a)
{
    g_app = a;
    g_null = fopen("/dev/null", "w");
    rl_readline_name = "genie";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = prep_term;
    rl_deprep_term_function = deprep_term;
    rl_getc_function = q_getc;
    rl_input_available_hook = q_avail;
    rl_redisplay_function = redisplay;
    rl_outstream = g_null;
    rl_attempted_completion_function = complete;
    /* One Tab lists the commands a prefix leaves open ("/re": /reset,
     * /resume, /rename), as a person expects, not only a second one. */
    rl_variable_bind("show-all-if-ambiguous", "on");
    rl_completion_display_matches_hook = show_matches;
    rl_completion_query_items = 1000;
    rl_add_defun("genie-edit-in-editor", edit_in_editor, -1);
    rl_initialize();
    rl_variable_bind("enable-bracketed-paste", "off");
    rl_variable_bind("bell-style", "none");
    const char *mode = cfg_str(a->c, OPT_EDITING_MODE);
    if (!strcmp(mode, "vi") || !strcmp(mode, "emacs")) rl_variable_bind("editing-mode", mode);
    rl_bind_keyseq_in_map("\\C-x\\C-e", edit_in_editor, emacs_standard_keymap);
    rl_bind_keyseq_in_map("v", edit_in_editor, vi_movement_keymap);
    using_history();
    stifle_history(HISTORY_MAX);
    char *dir = cfg_xdg_dir(a->c, CFG_XDG_STATE, NULL);
    gn_err e;
    gn_err_clear(&e);
    if (dir) {
        g_history = xasprintf("%s/history", dir);
        if (gn_mkdirs_for(g_history, &e)) { free(g_history); g_history = NULL; }
        free(dir);
    }
    history_load();
    rl_callback_handler_install("", on_line);
}

void input_end(app *a)
{
    (void)a;
    rl_callback_handler_remove();
    history_trim();
    clear_history();
    free(g_history);
    g_history = NULL;
    if (g_null) fclose(g_null);
    g_null = NULL;
    g_app = NULL;
}

/* ---- keys ---------------------------------------------------------------------------------- */

static void feed_str(const char *s) { q_feed(s, (int)strlen(s)); }

static void insert_text(const char *s)
{
    rl_insert_text(s);
    g_app->dirty = 1;
}

/* A bracketed paste: everything up to ESC [201~, inserted as typed text
 * (CR made newlines), waiting briefly for the rest of a long paste. */
static void paste(void)
{
    gn_buf b;
    gn_buf_init(&b);
    static const char end[] = "\033[201~";
    timeout(200);
    for (;;) {
        int c = getch();
        if (c == ERR) break;
        if (c > 255) continue;
        gn_buf_putc(&b, c == '\r' ? '\n' : (char)c);
        if (b.len >= 6 && !memcmp(b.data + b.len - 6, end, 6)) {
            b.len -= 6;
            b.data[b.len] = 0;
            break;
        }
    }
    nodelay(stdscr, TRUE);
    if (b.len) insert_text(b.data);
    gn_buf_release(&b);
}

/* After ESC: a paste, Alt-Enter, or a sequence readline binds. */
static void escape(void)
{
    timeout(30);
    int c = getch();
    if (c == '[') {
        char seq[8];
        int n = 0;
        int d;
        while (n < 5 && (d = getch()) != ERR) {
            seq[n++] = (char)d;
            if (d >= 0x40 && d <= 0x7e) break;
        }
        seq[n] = 0;
        nodelay(stdscr, TRUE);
        if (!strcmp(seq, "200~")) { paste(); return; }
        feed_str("\033[");
        feed_str(seq);
        return;
    }
    nodelay(stdscr, TRUE);
    if (c == '\r' || c == '\n' || c == KEY_ENTER) { insert_text("\n"); return; }
    feed_str("\033");
    if (c != ERR && c < 256) {
        char ch = (char)c;
        q_feed(&ch, 1);
    } else if (c != ERR) {
        ungetch(c);
    }
}

static void feed_wchar(wint_t wc)
{
    char buf[8];
    int n = 0;
    unsigned c = (unsigned)wc;
    if (c < 0x80) buf[n++] = (char)c;
    else if (c < 0x800) { buf[n++] = (char)(0xC0 | c >> 6); buf[n++] = (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
        buf[n++] = (char)(0xE0 | c >> 12);
        buf[n++] = (char)(0x80 | (c >> 6 & 0x3F));
        buf[n++] = (char)(0x80 | (c & 0x3F));
    } else {
        buf[n++] = (char)(0xF0 | c >> 18);
        buf[n++] = (char)(0x80 | (c >> 12 & 0x3F));
        buf[n++] = (char)(0x80 | (c >> 6 & 0x3F));
        buf[n++] = (char)(0x80 | (c & 0x3F));
    }
    q_feed(buf, n);
}

static int page(const app *a) { int h = a->pane[a->focus].h - 2; return h > 1 ? h : 1; }

static void mouse(app *a)
{
    MEVENT me;
    if (getmouse(&me) != OK) return;
    int p = draw_pane_at(a, me.y, me.x);
    if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
        /* A click on a message chooses it for copying. */
        int k = p == PANE_CONV ? draw_msg_at(a, me.y) : -1;
        if (k >= 0) {
            a->sel = k;
            a->focus = PANE_CONV;
        }
        return;
    }
    if (p < 0) p = a->focus;
    if (me.bstate & BUTTON4_PRESSED) draw_scroll(a, p, 3);
    else if (me.bstate & BUTTON5_PRESSED) draw_scroll(a, p, -3);
}

/* ---- copy mode ------------------------------------------------------------------
 *
 * F2 (or a click) chooses a message of the conversation, highlighted;
 * Up and Down move to the one before or after, y copies its text, c its
 * code blocks, and Esc, q or F2 leave; Ctrl-C leaves and cancels the turn
 * in progress; any other key leaves and does what it does (typing goes to
 * the input). */

static void key(app *a, int fn, int code);

static void copy_code(app *a, const vc_msg *m)
{
    const char *t = m->text.data ? m->text.data : "";
    int n = vc_code(t, 0, NULL);
    if (!n) {
        app_notice(a, "this message has no code block (y copies all of it)");
        return;
    }
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) gn_buf_puts(&b, "\n");
        vc_code(t, i, &b);
    }
    cmd_copy(a, b.len ? b.data : "\n", n == 1 ? "the code block" : "the code blocks");
    gn_buf_release(&b);
}

static void copy_key(app *a, int fn, int k)
{
    a->dirty = 1;
    if (a->sel >= a->conv.n) a->sel = a->conv.n - 1;
    if (a->sel < 0) return;                 /* the conversation went away */
    if (fn && k == KEY_RESIZE) draw_layout(a);
    else if (fn && k == KEY_MOUSE) mouse(a);
    else if ((fn && k == KEY_UP) || (!fn && k == 'k')) { if (a->sel > 0) a->sel--; }
    else if ((fn && k == KEY_DOWN) || (!fn && k == 'j')) { if (a->sel + 1 < a->conv.n) a->sel++; }
    else if ((fn && k == KEY_HOME) || (!fn && k == 'g')) a->sel = 0;
    else if ((fn && k == KEY_END) || (!fn && k == 'G')) a->sel = a->conv.n - 1;
    else if (!fn && (k == 'y' || k == '\r' || k == '\n')) {
        const vc_msg *m = a->conv.m[a->sel];
        cmd_copy(a, m->text.data, m->role == VC_AGENT ? "the reply" : "the message");
        a->sel = -1;
    } else if (!fn && k == 'c') {
        copy_code(a, a->conv.m[a->sel]);
        a->sel = -1;
    } else if ((!fn && (k == 27 || k == 'q')) || (fn && k == KEY_F(2))) {
        a->sel = -1;
    } else if (!fn && k == 3) {             /* Ctrl-C: copy mode ends, and the turn too */
        a->sel = -1;
        if (a->job) app_cancel(a);
    } else {
        /* Any other key ends copy mode and does what it does: typing goes
         * to the input, not to copy mode's letters. */
        a->sel = -1;
        key(a, fn, k);
    }
}

static void k_copy_mode(app *a, int k)
{
    (void)k;
    if (!a->conv.n) {
        app_notice(a, "nothing to copy yet");
        return;
    }
    /* The newest output: a reply, or a table of /suql. */
    a->sel = a->conv.n - 1;
    for (int i = a->conv.n - 1; i >= 0; i--)
        if (a->conv.m[i]->role == VC_AGENT || a->conv.m[i]->role == VC_BLOCK) {
            a->sel = i;
            break;
        }
    a->focus = PANE_CONV;
}

static void suspend(app *a)
{
    def_prog_mode();
    endwin();
    fputs("\033[?2004l", stdout);
    fflush(stdout);
    kill(getpid(), SIGTSTP);
    fputs("\033[?2004h", stdout);
    fflush(stdout);
    reset_prog_mode();
    clearok(curscr, TRUE);
    a->dirty = 1;
}

static void ctrl_c(app *a)
{
    if (a->job) {
        app_cancel(a);
    } else if (rl_end) {
        rl_replace_line("", 0);
        rl_point = 0;
        a->ctrl_c = 0;
    } else if (a->ctrl_c) {
        a->quit = 1;
    } else {
        a->ctrl_c = 1;
        return;
    }
    a->ctrl_c = 0;
}

/* ---- the key table ---------------------------------------------------------------
 *
 * Every key of the screen is a row of one table, as tmux binds its keys:
 * the input loop looks a key up in it, and the help screen lists its
 * rows, so a key cannot be bound without being described or described
 * without being bound.  A row's ON lists what get_wch returns for it (a
 * curses function key, or a character); a row without an action is
 * readline's own binding, listed for the help. */

static void k_layout(app *a, int k) { (void)k; draw_layout(a); }
static void k_help(app *a, int k)
{
    if (k == '?' && rl_end) feed_wchar((wint_t)k);   /* ? in text is text */
    else a->help = k == '?' ? 1 : !a->help;
}
static void k_page(app *a, int k) { draw_scroll(a, a->focus, k == KEY_PPAGE ? page(a) : -page(a)); }
static void k_line(app *a, int k) { draw_scroll(a, a->focus, k == KEY_SR ? 1 : -1); }
static void k_mouse(app *a, int k) { (void)k; mouse(a); }
static void k_up_down(app *a, int k)
{
    if (a->focus != PANE_CONV) draw_scroll(a, a->focus, k == KEY_UP ? 1 : -1);
    else feed_str(k == KEY_UP ? "\033[A" : "\033[B");
}
static void k_end(app *a, int k)
{
    (void)k;
    if (!rl_end && a->scroll[a->focus].off) a->scroll[a->focus].off = 0;
    else feed_str("\033[F");
}
/* Curses' function keys back into the escape sequences readline binds. */
static void k_readline(app *a, int k)
{
    (void)a;
    feed_str(k == KEY_LEFT ? "\033[D" : k == KEY_RIGHT ? "\033[C" : k == KEY_HOME ? "\033[H"
             : k == KEY_DC ? "\033[3~" : k == KEY_BACKSPACE ? "\177" : "\r");
}
static void k_ctrl_c(app *a, int k) { (void)k; ctrl_c(a); }
static void k_ctrl_d(app *a, int k)
{
    (void)k;
    if (!rl_end) a->quit = 1;
    else feed_str("\004");
}
static void k_suspend(app *a, int k) { (void)k; suspend(a); }
static void k_newline(app *a, int k) { (void)a, (void)k; insert_text("\n"); }
static void k_redraw(app *a, int k) { (void)a, (void)k; clearok(curscr, TRUE); }
static void k_escape(app *a, int k) { (void)a, (void)k; escape(); }
static void k_tab(app *a, int k)
{
    if (k == '\t' && rl_line_buffer && rl_line_buffer[0] == '/') feed_str("\t");
    else a->focus = (a->focus + (k == '\t' ? 1 : PANE__COUNT - 1)) % PANE__COUNT;
}

enum { CH = 0, FN = 1 };   /* a character, or a curses function key */

static const struct key_row {
    const char *keys, *what;       /* the help's row; NULL: not listed */
    struct { int fn, code; } on[6];
    void (*act)(app *a, int code); /* NULL: readline's own */
} key_rows[] = {
    { "Enter", "send the input", { { FN, KEY_ENTER } }, k_readline },
    { "Ctrl-J, Alt-Enter", "a new line in the input (a paste keeps its newlines)", { { CH, 10 } }, k_newline },
    { "Ctrl-X Ctrl-E", "edit the input in $VISUAL or $EDITOR (v in vi command mode)", { { 0, 0 } }, NULL },
    { "Up, Down", "input history (or scroll, in the worksheet and SUQL panes)",
      { { FN, KEY_UP }, { FN, KEY_DOWN } }, k_up_down },
    { "Ctrl-C", "cancel the turn in progress; clear the input; twice on an empty input: quit",
      { { CH, 3 } }, k_ctrl_c },
    { "Ctrl-D", "quit (on an empty input)", { { CH, 4 } }, k_ctrl_d },
    { "Tab, Shift-Tab", "move between the panes (Tab completes a /command)",
      { { CH, '\t' }, { FN, KEY_BTAB } }, k_tab },
    { "PgUp, PgDn", "scroll the focused pane by a page", { { FN, KEY_PPAGE }, { FN, KEY_NPAGE } }, k_page },
    { "Shift-Up, Shift-Down", "scroll the focused pane by a line", { { FN, KEY_SR }, { FN, KEY_SF } }, k_line },
    { "mouse wheel", "scroll the pane under the pointer", { { FN, KEY_MOUSE } }, k_mouse },
    { "End", "back to the newest output (on an empty input)", { { FN, KEY_END } }, k_end },
    { "F1, ?", "this help (? on an empty input)", { { FN, KEY_F(1) }, { CH, '?' } }, k_help },
    { "F2, a click", "choose a message to copy: Up/Down, y copies it, c its code, Esc leaves",
      { { FN, KEY_F(2) } }, k_copy_mode },
    { "Ctrl-L", "redraw the screen", { { CH, 12 } }, k_redraw },
    { "Ctrl-Z", "suspend genie (fg resumes it)", { { CH, 26 } }, k_suspend },
    { NULL, NULL, { { FN, KEY_RESIZE } }, k_layout },
    { NULL, NULL, { { FN, KEY_LEFT }, { FN, KEY_RIGHT }, { FN, KEY_HOME }, { FN, KEY_DC }, { FN, KEY_BACKSPACE } },
      k_readline },
    { NULL, NULL, { { CH, 27 } }, k_escape },    /* Alt-Enter, a bracketed paste, Alt-keys */
};

void input_key_help(gn_buf *out)
{
    for (size_t i = 0; i < sizeof key_rows / sizeof *key_rows; i++)
        if (key_rows[i].keys) gn_buf_printf(out, "  %-23s %s\n", key_rows[i].keys, key_rows[i].what);
}

/* The key get_wch gave: FN a function key CODE, else the character CODE. */
static void key(app *a, int fn, int code)
{
    if (!fn && code != 3) a->ctrl_c = 0;
    for (size_t i = 0; i < sizeof key_rows / sizeof *key_rows; i++)
        for (int j = 0; key_rows[i].act && j < 6 && key_rows[i].on[j].code; j++)
            if (key_rows[i].on[j].fn == fn && key_rows[i].on[j].code == code) {
                key_rows[i].act(a, code);
                a->dirty = 1;
                return;
            }
    if (!fn) feed_wchar((wint_t)code);     /* text, and readline's keys */
    a->dirty = 1;
}

void input_keys(app *a)
{
    wint_t c;
    int r;
    while ((r = get_wch(&c)) != ERR) {
        if (a->help) {
            a->dirty = 1;
            int k = r == KEY_CODE_YES ? (int)c : 0;
            if (k == KEY_NPAGE || k == KEY_DOWN) a->help_top += k == KEY_DOWN ? 1 : a->rows / 2;
            else if (k == KEY_PPAGE || k == KEY_UP) a->help_top -= k == KEY_UP ? 1 : a->rows / 2;
            else if (k == KEY_RESIZE) draw_layout(a);
            else if (k != KEY_MOUSE) { a->help = 0; a->help_top = 0; }
            continue;
        }
        a->notice[0] = 0;
        if (a->sel >= 0) {
            copy_key(a, r == KEY_CODE_YES, (int)c);
            continue;
        }
        key(a, r == KEY_CODE_YES, (int)c);
        if (a->quit) break;
    }
}
