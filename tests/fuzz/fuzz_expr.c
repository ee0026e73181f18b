/*
 * fuzz_expr.c — libFuzzer target for the worksheet expression language:
 * the tokenizer and parser (engine/worksheet/expr_lex.c, expr.c), the
 * printer (expr_print.c), and the interpreter (interp.c) with the policy
 * (policy.c) and the dialogue state (state.c) behind it.  No LLM and no
 * network: the statements run against a small fixed spec and state, and
 * the one backend API the spec declares is answered by a stub.
 *
 * The input is source text (cut at its first NUL byte), parsed as a program
 * and as one expression.  Beyond the sanitizers' checks, the target aborts
 * when:
 *   - a parse fails with a code other than GN_EPARSE, an empty message, a
 *     tree left behind, or a position outside the text;
 *   - parsed again as if it started at line 10, column 7, the outcome
 *     differs or the error does not move by exactly that offset;
 *   - a parsed text prints as text that does not parse, or that prints
 *     differently the second time (expr_print.c: "the text parses back to
 *     the same tree"; printed texts past the 64 KiB input limit are not
 *     parsed again);
 *   - an expression that parses is not also a program of that one
 *     expression statement, printed alike (expr.h's grammar);
 *   - in parser mode a refused statement changes the state or the acts
 *     (interp.h: "a refused statement changes nothing"), compared by the
 *     state's JSON and its prompt form;
 *   - an interpreter error has an empty message;
 *   - the state's JSON does not read back (ws_state_from_json) to the same
 *     JSON.
 * Only the first MAX_RUN statements are run: parser mode snapshots the
 * whole state for every statement, which is quadratic in the records a
 * long program makes.
 * Seeds: tests/fuzz/seeds/fuzz_expr (one text per file).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iengine tests/fuzz/fuzz_expr.c \
 *       engine/worksheet/{acts,coerce,expr,expr_lex,expr_print,interp,policy}.c \
 *       engine/worksheet/{spec,spec_csv,spec_json,state,value}.c \
 *       engine/util/{buf,err,fs,strdist,xmem}.c -lcjson -lcsv -lm -o /tmp/fuzz_expr
 *   /tmp/fuzz_expr -max_total_time=60 CORPUS_DIR tests/fuzz/seeds/fuzz_expr
 */
#include "util/buf.h"
#include "worksheet/acts.h"
#include "worksheet/expr.h"
#include "worksheet/interp.h"
#include "worksheet/policy.h"
#include "worksheet/spec.h"
#include "worksheet/state.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RUN 32
#define MAX_SRC 65536            /* WS_EXPR_MAX_SRC (expr_int.h) */

/* A task worksheet with a field of every type, a predicate, field and
 * worksheet actions and an API; a type that nests itself (friend: Person,
 * Don't Ask, as a spec must make such a field);
 * a db worksheet. */
static const char SPEC[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,"
    "Required,Confirm,Actions,Form Actions\n"
    ",Book,,,worksheet,book_api,,Book a table.,,,,,\"say(\"\"booked \"\" + str(self.result))\"\n"
    ",,,input,str,restaurant,,name of the restaurant,,TRUE,,,\n"
    ",,,input,int,party,,number of people,,TRUE,TRUE,\"self.big = self.party > 10\n"
    "check(self.party <= 20, \"\"at most 20\"\")\",\n"
    ",,self.party > 10,input,str,manager,,the event manager,,TRUE,,,\n"
    ",,,input,float,budget,,,,,,,\n"
    ",,,input,bool,outdoor,,,,,,,\n"
    ",,,input,date,day,,,,,,,\n"
    ",,,input,time,at,,,,,,,\n"
    ",,,input,Enum,seating,,,,,,,\n"
    ",,,,,,indoor,,,,,,\n"
    ",,,,,,bar,,,,,,\n"
    ",,,input,List[str],tags,,,,,,,\n"
    ",,,input,List[int],nums,,,,,,,\n"
    ",,,input,List[Enum],moods,,,,,,,\n"
    ",,,,,,quiet,,,,,,\n"
    ",,,,,,loud,,,,,,\n"
    ",,,input,Person,guest,,who the table is for,,TRUE,,,\n"
    ",,,input,List[Person],others,,,,,,,\n"
    ",,,input,str,notes,,,TRUE,,,,\n"
    ",,,internal,bool,big,,,,,,,\n"
    ",,,output,str,booking_id,,,,,,,\n"
    ",,,input,confirm,ok,,go ahead,,TRUE,,,\n"
    ",Person,,,type,,,A person.,,,,,\n"
    ",,,input,str,name,,full name,,TRUE,,,\n"
    ",,,input,Person,friend,,,TRUE,,,,\n"
    ",Place,,,db,places,,Places.,,,,,\n"
    ",,,internal; primary,str,name,,,,,,,\n";

static const ws_date TODAY = { 2026, 3, 13 };

static const ws_spec *spec(void)
{
    static ws_spec *s;
    gn_err e;
    if (!s && ws_spec_parse_csv("fuzz.csv", SPEC, sizeof SPEC - 1, &s, &e)) {
        fprintf(stderr, "fuzz_expr: the fixed spec does not load: %d:%d %s\n", e.line, e.col,
                e.msg);
        abort();
    }
    return s;
}

static int stub_has(void *ud, const char *name)
{
    (void)ud;
    return !strcmp(name, "book_api");
}

static int stub_call(void *ud, const char *name, const ws_val *args, ws_val **out, gn_err *e)
{
    (void)ud;
    (void)name;
    const ws_val *fail = ws_dict_get(args, "fail");
    if (fail && ws_val_truthy(fail)) return gn_err_set(e, GN_ENET, "no table free");
    ws_val *d = ws_dict();
    ws_dict_set(d, "booking_id", ws_str("B-1"));
    ws_dict_set(d, "args", ws_val_copy(args));
    *out = d;
    return 0;
}

static const ws_host host = { stub_has, stub_call, NULL };

/* ---- parsing ---------------------------------------------------------- */

/* The number of lines of TEXT and, in COLS (NULL: not wanted), the
 * characters of each (UTF-8 lead bytes and stray bytes, as the lexer
 * counts them). */
static int count_lines(const char *text, int *cols)
{
    int line = 0, n = 0;
    for (const char *p = text;; p++) {
        if (!*p || *p == '\n') {
            if (cols) cols[line] = n;
            line++;
            n = 0;
            if (!*p) return line;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            n++;
        }
    }
}

/* An error of a parse of TEXT placed at LINE0:COL0. */
static void check_error(const char *text, int line0, int col0, int rc, const gn_err *e,
                        const void *out)
{
    if (rc != GN_EPARSE || e->code != GN_EPARSE || out || !e->msg[0]) {
        fprintf(stderr, "bad error: rc %d code %d out %p msg '%s'\n", rc, e->code, out, e->msg);
        abort();
    }
    int lines = count_lines(text, NULL);
    int *cols = malloc((size_t)lines * sizeof *cols);
    count_lines(text, cols);
    int line = e->line - (line0 - 1), col = line == 1 ? e->col - (col0 - 1) : e->col;
    if (line < 1 || line > lines || col < 1 || col > cols[line - 1] + 1) {
        fprintf(stderr, "error position %d:%d outside the text (%d lines, from %d:%d): %s\n",
                e->line, e->col, lines, line0, col0, e->msg);
        abort();
    }
    free(cols);
}

static void print_prog(const ws_prog *p, gn_buf *out)
{
    for (int i = 0; i < p->n; i++) {
        if (i) gn_buf_putc(out, '\n');
        ws_stmt_print(&p->stmts[i], out);
    }
}

/* Parse TEXT as a program; on success *OUT gets the canonical print. */
static ws_prog *parse_prog(const char *text, gn_buf *out)
{
    ws_prog *p = NULL, *q = NULL;
    gn_err e, e2;
    gn_err_clear(&e);
    gn_err_clear(&e2);
    int rc = ws_prog_parse(text, 1, 1, &p, &e);
    int rc2 = ws_prog_parse(text, 10, 7, &q, &e2);
    if (!rc != !rc2) {
        fprintf(stderr, "the outcome depends on line0/col0: %d vs %d\n", rc, rc2);
        abort();
    }
    if (rc) {
        check_error(text, 1, 1, rc, &e, p);
        check_error(text, 10, 7, rc2, &e2, q);
        int want_col = e.line == 1 ? e.col + 6 : e.col;
        if (e2.line != e.line + 9 || e2.col != want_col || strcmp(e.msg, e2.msg)) {
            fprintf(stderr, "offset error %d:%d '%s', expected %d:%d '%s'\n", e2.line, e2.col,
                    e2.msg, e.line + 9, want_col, e.msg);
            abort();
        }
        return NULL;
    }
    gn_buf b2;
    gn_buf_init(&b2);
    print_prog(p, out);
    print_prog(q, &b2);
    if (strcmp(out->data, b2.data)) abort();
    gn_buf_release(&b2);
    ws_prog_free(q);
    return p;
}

/* The printer's contract: the print parses, and prints the same again. */
static void reparse_prog(const char *once)
{
    if (strlen(once) > MAX_SRC) return;
    ws_prog *p = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ws_prog_parse(once, 1, 1, &p, &e)) {
        fprintf(stderr, "reprint does not parse: %d:%d %s\n  %s\n", e.line, e.col, e.msg, once);
        abort();
    }
    gn_buf twice;
    gn_buf_init(&twice);
    print_prog(p, &twice);
    if (strcmp(once, twice.data)) {
        fprintf(stderr, "reprint differs:\n  %s\n  %s\n", once, twice.data);
        abort();
    }
    gn_buf_release(&twice);
    ws_prog_free(p);
}

static ws_node *parse_expr(const char *text, gn_buf *out)
{
    ws_node *n = NULL;
    gn_err e;
    gn_err_clear(&e);
    int rc = ws_expr_parse(text, 1, 1, &n, &e);
    if (rc) {
        check_error(text, 1, 1, rc, &e, n);
        return NULL;
    }
    ws_node_print(n, out);
    if (strlen(out->data) <= MAX_SRC) {
        ws_node *m = NULL;
        gn_buf twice;
        gn_buf_init(&twice);
        if (ws_expr_parse(out->data, 1, 1, &m, &e)) {
            fprintf(stderr, "expression reprint does not parse: %s\n  %s\n", e.msg, out->data);
            abort();
        }
        ws_node_print(m, &twice);
        if (strcmp(out->data, twice.data)) {
            fprintf(stderr, "expression reprint differs:\n  %s\n  %s\n", out->data, twice.data);
            abort();
        }
        gn_buf_release(&twice);
        ws_node_free(m);
    }
    return n;
}

/* ---- running ------------------------------------------------------------ */

/* The state's JSON and prompt form (the prompt shows ints exactly, the
 * JSON the flags), as one text; the caller frees. */
static char *state_text(const ws_state *st, const ws_acts *acts)
{
    cJSON *j = ws_state_to_json(st);
    char *js = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, js);
    gn_buf_putc(&b, '\n');
    ws_state_print(st, 1000, &b);
    gn_buf_printf(&b, "acts %d\n", acts->n);
    free(js);
    return gn_buf_detach(&b);
}

static void check_run_error(int rc, const gn_err *e)
{
    if (rc && !e->msg[0]) {
        fprintf(stderr, "interpreter error %d without a message\n", rc);
        abort();
    }
}

static void run_parser(ws_interp *in, const ws_prog *p)
{
    in->mode = WS_MODE_PARSER;
    in->self = in->self_field = -1;
    for (int i = 0; i < p->n && i < MAX_RUN; i++) {
        gn_err e;
        gn_err_clear(&e);
        char *before = state_text(in->st, in->acts);
        int rc = ws_run_stmt(in, &p->stmts[i], &e);
        check_run_error(rc, &e);
        if (rc) {
            char *after = state_text(in->st, in->acts);
            if (strcmp(before, after)) {
                fprintf(stderr, "refused statement %d (%s) changed the state:\n%s\n---\n%s\n", i,
                        e.msg, before, after);
                abort();
            }
            free(after);
        }
        free(before);
    }
}

static void run_action(ws_interp *in, const ws_prog *p, int self, int field)
{
    in->mode = WS_MODE_ACTION;
    in->self = self;
    in->self_field = field;
    for (int i = 0; i < p->n && i < MAX_RUN; i++) {
        gn_err e;
        gn_err_clear(&e);
        check_run_error(ws_run_stmt(in, &p->stmts[i], &e), &e);
    }
    in->self = in->self_field = -1;
}

static void json_round_trip(const ws_state *st)
{
    cJSON *j = ws_state_to_json(st);
    char *once = cJSON_PrintUnformatted(j);
    ws_state *back = NULL;
    gn_err e;
    if (ws_state_from_json(st->spec, j, st->today, &back, &e)) {
        fprintf(stderr, "state JSON does not read back: %s\n%s\n", e.msg, once);
        abort();
    }
    cJSON *j2 = ws_state_to_json(back);
    char *twice = cJSON_PrintUnformatted(j2);
    if (strcmp(once, twice)) {
        fprintf(stderr, "state JSON differs after reading back:\n%s\n%s\n", once, twice);
        abort();
    }
    free(once);
    free(twice);
    cJSON_Delete(j);
    cJSON_Delete(j2);
    ws_state_free(back);
}

static void acts_text(const ws_state *st, const ws_acts *acts)
{
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < acts->n; i++) {
        ws_act_print(st, &acts->v[i], &b);
        ws_act_render(st, &acts->v[i], &b);
        ws_act_is_question(&acts->v[i]);
    }
    gn_buf_release(&b);
}

static void run(const ws_prog *prog, const ws_node *pred)
{
    const ws_spec *sp = spec();
    ws_state *st = ws_state_new(sp, TODAY);
    ws_acts acts;
    ws_acts_init(&acts);
    st->turn = 1;
    ws_record *book = ws_state_new_task(st, ws_spec_sheet_index(sp, "Book"), -1, -1);
    int book_id = book->id;
    ws_record *kb = ws_state_new_kb(st, "cheap places");
    kb->ran = 1;
    kb->result = ws_list();
    for (int i = 0; i < 2; i++) {
        ws_val *row = ws_dict();
        ws_dict_set(row, "name", ws_str(i ? "Kaito" : "Zola"));
        ws_dict_set(row, "rating", ws_float(4.5 - i));
        ws_list_add(kb->result, row);
    }
    ws_interp in = { .st = st, .acts = &acts, .host = &host, .mode = WS_MODE_PARSER,
                     .self = -1, .self_field = -1 };
    gn_buf b;
    gn_buf_init(&b);
    if (prog) run_parser(&in, prog);
    ws_policy_run(&in, NULL, NULL);
    if (prog && ws_state_rec(st, book_id)) {
        run_action(&in, prog, book_id, -1);
        run_action(&in, prog, book_id, ws_sheet_field_index(&sp->sheets[0], "party"));
    }
    if (pred && ws_state_rec(st, book_id)) {
        int v;
        gn_err e;
        gn_err_clear(&e);
        in.mode = WS_MODE_ACTION;
        in.self = book_id;
        check_run_error(ws_eval_pred(&in, pred, &v, &e), &e);
        in.self = -1;
    }
    st->turn++;
    ws_policy_run(&in, NULL, NULL);
    acts_text(st, &acts);
    ws_state_print(st, 5, &b);
    json_round_trip(st);
    st->turn += 3;
    ws_state_forget(st, 1);
    json_round_trip(st);
    gn_buf_release(&b);
    ws_acts_release(&acts);
    ws_state_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    gn_buf ptext, etext;
    gn_buf_init(&ptext);
    gn_buf_init(&etext);
    ws_prog *p = parse_prog(text, &ptext);
    if (p) reparse_prog(ptext.data);
    ws_node *n = parse_expr(text, &etext);
    if (n && (!p || p->n != 1 || p->stmts[0].kind != WS_EXPR || strcmp(ptext.data, etext.data))) {
        fprintf(stderr, "an expression that is not a one-statement program:\n  %s\n  %s\n",
                etext.data, p ? ptext.data : "(no program)");
        abort();
    }
    if (p || n) run(p, n);
    ws_prog_free(p);
    ws_node_free(n);
    gn_buf_release(&ptext);
    gn_buf_release(&etext);
    free(text);
    return 0;
}
