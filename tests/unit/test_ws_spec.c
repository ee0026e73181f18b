/*
 * test_ws_spec.c — the worksheet spec loader: the reference spreadsheet
 * layout as CSV, the same content as JSON (both must load to identical
 * structures), a CRLF + BOM export with renamed and reordered columns, and
 * one broken file per error kind with its file, line, column and message.
 */
#include "harness.h"

#include "util/buf.h"
#include "worksheet/spec.h"

#include <stdlib.h>

static ws_spec *load(const char *rel)
{
    ws_spec *s = NULL;
    gn_err e;
    gn_err_clear(&e);
    int rc = ws_spec_load(th_path(rel), &s, &e);
    if (rc) {
        char buf[1200];
        th_fail(__FILE__, __LINE__, "loading %s: %s", rel, gn_err_str(&e, buf, sizeof buf));
    }
    return s;
}

static const ws_field *field(const ws_spec *s, const char *sheet, const char *name)
{
    return ws_sheet_field(ws_spec_sheet(s, sheet), name);
}

static const char *type_str(const ws_spec *s, const ws_field *f)
{
    static char out[4][256];
    static int i;
    char *o = out[i++ % 4];
    gn_buf b;
    gn_buf_init(&b);
    ws_type_print(s, f, &f->type, &b);
    snprintf(o, sizeof out[0], "%s", b.data);
    gn_buf_release(&b);
    return o;
}

TEST(ws_spec_csv_reference_layout)
{
    ws_spec *s = load("tests/data/worksheets/restaurant.csv");
    REQUIRE(s);
    CHECK_INT(s->nsheets, 3);
    const ws_sheet *b = ws_spec_sheet(s, "Book_Restaurant");
    REQUIRE(b);
    CHECK_INT(b->kind, WSK_TASK);
    CHECK_STR(b->api, "book_restaurant");
    CHECK_STR(b->desc, "Book a table at a restaurant.");
    CHECK(b->pred_src == NULL && b->pred == NULL);
    CHECK_STR(b->act_src, "say(\"Booking your table\")\n"
                          "@book_restaurant(restaurant=self.restaurant, party_size=self.party_size)");
    CHECK(b->actions && b->actions->n == 2);
    CHECK_INT(b->line, 2);
    CHECK_INT(b->nfields, 11);

    const ws_field *f = field(s, "Book_Restaurant", "restaurant");
    REQUIRE(f);
    CHECK_INT(f->line, 4);
    CHECK_INT(f->kind, WFK_INPUT);
    CHECK_INT(f->type.kind, WT_STR);
    CHECK_INT(f->required, 1);
    CHECK_INT(f->dont_ask, 0);

    f = field(s, "Book_Restaurant", "seating");
    REQUIRE(f);
    CHECK_INT(f->type.kind, WT_ENUM);
    REQUIRE(f->nenums == 3);
    CHECK_STR(f->enums[1], "outdoor, terrace");
    CHECK_STR(type_str(s, f), "Enum[\"indoor\", \"outdoor, terrace\", \"bar\"]");

    f = field(s, "Book_Restaurant", "party_size");
    REQUIRE(f);
    CHECK_INT(f->line, 9);
    CHECK_STR(f->pred_src, "self.restaurant is not None");
    CHECK(f->pred != NULL);
    CHECK(f->actions && f->actions->n == 1);
    CHECK_INT(f->confirm, 1);

    f = field(s, "Book_Restaurant", "big_party");
    REQUIRE(f);
    CHECK_INT(f->kind, WFK_INTERNAL);
    CHECK_INT(f->dont_ask, 1);

    f = field(s, "Book_Restaurant", "guest");
    REQUIRE(f);
    CHECK_INT(f->type.kind, WT_SHEET);
    CHECK_INT(f->type.sheet, ws_spec_sheet_index(s, "Guest"));
    CHECK_STR(type_str(s, f), "Guest");

    f = field(s, "Book_Restaurant", "special_requests");
    REQUIRE(f);
    CHECK_INT(f->type.kind, WT_LIST);
    REQUIRE(f->type.elem);
    CHECK_INT(f->type.elem->kind, WT_STR);
    CHECK_STR(f->type_src, "List[str]");

    f = field(s, "Book_Restaurant", "tags");
    REQUIRE(f);
    CHECK_STR(type_str(s, f), "List[Enum[\"quiet\", \"window\"]]");
    CHECK_INT(field(s, "Book_Restaurant", "confirm_booking")->type.kind, WT_CONFIRM);
    CHECK_INT(field(s, "Book_Restaurant", "booking_id")->kind, WFK_OUTPUT);

    const ws_sheet *g = ws_spec_sheet(s, "Guest");
    REQUIRE(g);
    CHECK_INT(g->kind, WSK_TYPE);
    CHECK(g->api == NULL);
    CHECK_INT(g->line, 21);

    const ws_sheet *r = ws_spec_sheet(s, "Restaurant");
    REQUIRE(r);
    CHECK_INT(r->kind, WSK_DB);
    CHECK_INT(r->line, 25);
    f = ws_sheet_field(r, "id");
    REQUIRE(f);
    CHECK_INT(f->kind, WFK_INTERNAL);
    CHECK_INT(f->primary, 1);
    CHECK_INT(ws_sheet_field(r, "reviews")->type.kind, WT_TEXT);
    CHECK_INT(ws_sheet_field(r, "price")->nenums, 3);
    CHECK_INT(ws_sheet_field(r, "price")->line, 31);

    CHECK(ws_spec_sheet(s, "book_restaurant") == NULL);
    CHECK_INT(ws_spec_sheet_index(s, "Nope"), -1);
    CHECK_INT(ws_sheet_field_index(r, "rating"), 4);
    CHECK(ws_sheet_field(r, "Rating") == NULL);
    ws_spec_free(s);
}

static void same_type(const ws_type *a, const ws_type *b)
{
    CHECK_INT(a->kind, b->kind);
    if (a->kind == WT_SHEET) CHECK_INT(a->sheet, b->sheet);
    CHECK((a->elem == NULL) == (b->elem == NULL));
    if (a->elem && b->elem) same_type(a->elem, b->elem);
}

static void same_opt(const char *a, const char *b)
{
    if (!a || !b) CHECK(a == b);
    else CHECK_STR(a, b);
}

static void same_code(const ws_prog *a, const ws_prog *b)
{
    CHECK((a == NULL) == (b == NULL));
    if (!a || !b) return;
    REQUIRE(a->n == b->n);
    gn_buf x, y;
    gn_buf_init(&x);
    gn_buf_init(&y);
    for (int i = 0; i < a->n; i++) {
        ws_stmt_print(&a->stmts[i], &x);
        ws_stmt_print(&b->stmts[i], &y);
    }
    CHECK_STR(x.data, y.data);
    gn_buf_release(&x);
    gn_buf_release(&y);
}

TEST(ws_spec_json_matches_csv)
{
    ws_spec *c = load("tests/data/worksheets/restaurant.csv");
    ws_spec *j = load("tests/data/worksheets/restaurant.json");
    REQUIRE(c && j);
    REQUIRE(c->nsheets == j->nsheets);
    for (int i = 0; i < c->nsheets; i++) {
        const ws_sheet *a = &c->sheets[i], *b = &j->sheets[i];
        CHECK_STR(a->name, b->name);
        CHECK_INT(a->kind, b->kind);
        same_opt(a->api, b->api);
        same_opt(a->pred_src, b->pred_src);
        same_opt(a->act_src, b->act_src);
        same_code(a->actions, b->actions);
        CHECK_STR(a->desc, b->desc);
        CHECK(b->line > 0);
        REQUIRE(a->nfields == b->nfields);
        for (int k = 0; k < a->nfields; k++) {
            const ws_field *x = &a->fields[k], *y = &b->fields[k];
            CHECK_STR(x->name, y->name);
            CHECK_INT(x->kind, y->kind);
            CHECK_INT(x->primary, y->primary);
            same_type(&x->type, &y->type);
            CHECK_STR(x->type_src, y->type_src);
            REQUIRE(x->nenums == y->nenums);
            for (int v = 0; v < x->nenums; v++) CHECK_STR(x->enums[v], y->enums[v]);
            CHECK_STR(x->desc, y->desc);
            CHECK_INT(x->dont_ask, y->dont_ask);
            CHECK_INT(x->required, y->required);
            CHECK_INT(x->confirm, y->confirm);
            same_opt(x->pred_src, y->pred_src);
            CHECK((x->pred == NULL) == (y->pred == NULL));
            same_opt(x->act_src, y->act_src);
            same_code(x->actions, y->actions);
        }
    }
    /* The JSON object of each field is on its own line. */
    CHECK_INT(ws_spec_sheet(j, "Book_Restaurant")->line, 3);
    CHECK(field(j, "Book_Restaurant", "seating")->line > field(j, "Book_Restaurant", "restaurant")->line);

    gn_buf sc, sj;
    gn_buf_init(&sc);
    gn_buf_init(&sj);
    ws_spec_signatures(c, &sc);
    ws_spec_signatures(j, &sj);
    CHECK_STR(sc.data, sj.data);
    gn_buf_release(&sc);
    gn_buf_release(&sj);
    ws_spec_free(c);
    ws_spec_free(j);
}

TEST(ws_spec_signatures_format)
{
    ws_spec *s = load("tests/data/worksheets/restaurant.csv");
    REQUIRE(s);
    gn_buf b;
    gn_buf_init(&b);
    ws_spec_signatures(s, &b);
    CHECK_STR(b.data,
              "class Book_Restaurant:\n"
              "    \"\"\"Book a table at a restaurant.\"\"\"\n"
              "    restaurant: str  # name of the restaurant to book\n"
              "    seating: Enum[\"indoor\", \"outdoor, terrace\", \"bar\"]  # where to sit\n"
              "    party_size: int  # number of people\n"
              "    guest: Guest  # who the table is for\n"
              "    special_requests: List[str]  # anything else to tell the restaurant\n"
              "    tags: List[Enum[\"quiet\", \"window\"]]\n"
              "    date: date  # day of the booking\n"
              "    time: time  # time of the booking\n"
              "    confirm_booking: confirm  # confirm the booking\n"
              "\n"
              "class Guest:\n"
              "    \"\"\"A person a table is booked for.\"\"\"\n"
              "    name: str  # full name\n"
              "    phone: str\n");
    gn_buf_release(&b);
    ws_spec_free(s);

    /* No docstring without a description; free text prints as str. */
    const char *csv = "Form Name,Kind,Type,Name,Description\n"
                      "Note,,worksheet,,\n"
                      ",input,text,body,what to say\n";
    gn_err e;
    REQUIRE(ws_spec_parse_csv("mem.csv", csv, strlen(csv), &s, &e) == 0);
    gn_buf_init(&b);
    ws_spec_signatures(s, &b);
    CHECK_STR(b.data, "class Note:\n    body: str  # what to say\n");
    gn_buf_release(&b);
    ws_spec_free(s);
}

TEST(ws_spec_csv_crlf_bom_aliases)
{
    ws_spec *s = load("tests/data/worksheets/crlf_bom.csv");
    REQUIRE(s);
    CHECK_INT(s->nsheets, 3);
    const ws_sheet *c = ws_spec_sheet(s, "Course_Enrollment");
    REQUIRE(c);
    CHECK_INT(c->kind, WSK_TASK);
    CHECK_STR(c->api, "enroll");
    CHECK_STR(c->desc, "Enroll a student\nin a course.");
    CHECK_INT(c->line, 2);
    const ws_field *f = ws_sheet_field(c, "course");
    REQUIRE(f);
    CHECK_INT(f->line, 4);
    CHECK_INT(f->required, 1);
    f = ws_sheet_field(c, "grading");
    REQUIRE(f);
    CHECK_INT(f->required, 1);
    REQUIRE(f->nenums == 2);
    CHECK_STR(f->enums[1], "Credit/No Credit");
    f = ws_sheet_field(c, "units");
    REQUIRE(f);
    CHECK_INT(f->line, 8);
    CHECK_INT(f->dont_ask, 1);
    CHECK_STR(f->pred_src, "self.grading == \"Letter\"");
    CHECK(f->pred != NULL);
    /* The paper's layout: the worksheet's kind in the Kind column. */
    const ws_sheet *st = ws_spec_sheet(s, "Student");
    REQUIRE(st);
    CHECK_INT(st->kind, WSK_DB);
    CHECK_INT(st->line, 10);
    f = ws_sheet_field(st, "student_id");
    REQUIRE(f);
    CHECK_INT(f->primary, 1);
    CHECK_INT(f->kind, WFK_INTERNAL);
    CHECK_INT(ws_sheet_field(st, "notes")->type.kind, WT_TEXT);
    const ws_sheet *a = ws_spec_sheet(s, "Address");
    REQUIRE(a);
    CHECK_INT(a->kind, WSK_TYPE);
    CHECK_INT(ws_sheet_field(a, "street")->type.kind, WT_STR);
    CHECK_INT(ws_sheet_field(a, "street")->line, 14);
    ws_spec_free(s);
}

/* One broken file per error kind: where the error points and what it says. */
static const struct {
    const char *file;
    int line, col;
    const char *msg;
} broken[] = {
    {"missing_columns.csv", 1, 2, "lacks the columns Form Name, Type (is 'Form Nme' meant to be 'Form Name'?)"},
    {"duplicate_column.csv", 1, 5, "column 'Type' appears twice (columns 3 and 5)"},
    {"misspelt_column.csv", 1, 6, "column 'Dont Aks' is not one genie reads (did you mean 'Don't Ask'?)"},
    {"unknown_type.csv", 4, 5, "unknown type 'strr' (did you mean 'str'?)"},
    {"unknown_list_type.csv", 3, 5,
     "unknown type 'Restaurnt' in 'List[Restaurnt]' (did you mean 'Restaurant'?)"},
    {"duplicate_worksheet.csv", 4, 2, "duplicate worksheet 'Order' (first at line 2)"},
    {"duplicate_field.csv", 4, 6, "duplicate field 'item' in worksheet 'Order' (first at line 3)"},
    {"bad_name.csv", 3, 6, "field name 'party size' is not an identifier"},
    {"reserved_name.csv", 3, 6, "field name 'class' is a reserved word"},
    {"taken_name.csv", 3, 6, "field name 'result' already means a task's API result (self.result) in predicates and actions"},
    {"holds_itself.csv", 3, 5, "worksheet Order holds itself through field guest"},
    {"no_name.csv", 3, 6, "field has no name"},
    {"builtin_sheet_name.csv", 2, 2, "worksheet name 'Date' is a built-in type's name"},
    {"enum_no_values.csv", 3, 5,
     "enum field 'grading' has no values: list them in the Enum Values column of the rows below it"},
    {"enum_duplicate.csv", 6, 7, "duplicate enum value 'small' of field 'size'"},
    {"enum_not_enum.csv", 4, 7, "field 'size' has type str, not Enum: it takes no enum values"},
    {"enum_orphan.csv", 3, 7, "enum value 'small' has no field above it"},
    {"confirm_not_task.csv", 3, 5, "type confirm is only for task worksheets, and 'Shop' is a db worksheet"},
    {"bad_predicate.csv", 4, 3, "Predicate: 1:16: expected ')'"},
    {"bad_action.csv", 3, 12, "Actions: 1:1: 'import' is not allowed"},
    {"bad_form_action.csv", 2, 13, "Form Actions: 2:5: expected an expression"},
    {"bad_bool.csv", 3, 10, "Required: expected TRUE or FALSE, got 'maybe'"},
    {"bad_kind.csv", 3, 4, "unknown field kind 'inptu' (did you mean 'input'?)"},
    {"bad_primary.csv", 3, 4, "only 'primary' may follow the ';'"},
    {"bad_sheet_type.csv", 2, 5, "unknown worksheet type 'dbb' (did you mean 'db'?)"},
    {"field_before_sheet.csv", 2, 4, "field row before any worksheet"},
    {"misplaced_code.csv", 3, 1, "Form Predicate is set on a field's row"},
    {"neither_row.csv", 4, 0, "row is neither a worksheet"},
    {"unterminated_quote.csv", 3, 0, "unterminated quoted cell"},
    {"no_worksheets.csv", 0, 0, "no worksheets"},
    {"syntax.json", 4, 5, "invalid JSON near '{\"name\": \"B\"}'"},
    {"unknown_type.json", 7, 0, "worksheets[1].fields[0].type: unknown type 'strr' (did you mean 'str'?)"},
    {"unknown_key.json", 3, 0,
     "worksheets[0].fields[0]: unknown key \"requried\" (did you mean \"required\"?)"},
    {"bad_bool.json", 3, 0, "worksheets[0].fields[0].required: expected true or false"},
    {"enum_no_values.json", 3, 0,
     "worksheets[0].fields[0].type: enum field 'grading' has no values: list them in its \"enum\" array"},
    {"missing_kind.json", 3, 0, "worksheets[1]: missing \"kind\": worksheet, db or type"},
    {"bad_predicate.json", 2, 0, "worksheets[0].predicate: 1:10: expected an expression"},
};

TEST(ws_spec_errors_point_at_the_cell)
{
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        char rel[200];
        snprintf(rel, sizeof rel, "tests/data/worksheets/errors/%s", broken[i].file);
        const char *path = th_path(rel);
        ws_spec *s = (ws_spec *)1;
        gn_err e;
        gn_err_clear(&e);
        int rc = ws_spec_load(path, &s, &e);
        if (rc != GN_EPARSE || s != NULL || strcmp(e.file, path) || e.line != broken[i].line ||
            e.col != broken[i].col || !strstr(e.msg, broken[i].msg))
            th_fail(__FILE__, __LINE__, "%s: rc %d, got %s:%d:%d: %s; expected %d:%d: ...%s...",
                    broken[i].file, rc, e.file, e.line, e.col, e.msg, broken[i].line,
                    broken[i].col, broken[i].msg);
        ws_spec_free(rc ? NULL : s);
    }
}

TEST(ws_spec_load_io_errors)
{
    ws_spec *s = (ws_spec *)1;
    gn_err e;
    const char *path = th_path("tests/data/worksheets/nope.csv");
    CHECK_INT(ws_spec_load(path, &s, &e), GN_ENOTFOUND);
    CHECK(s == NULL);
    CHECK_STR(e.file, path);
    path = th_path("tests/data/worksheets");
    CHECK_INT(ws_spec_load(path, &s, &e), GN_EIO);
    CHECK_STR(e.file, path);
}

TEST(ws_spec_csv_in_memory_edges)
{
    ws_spec *s;
    gn_err e;
    /* Old Mac line ends, a quoted cell over three lines, a NUL byte. */
    const char *cr = "Form Name,Kind,Type,Name,Description\r"
                     "A,,worksheet,,\"one\rtwo\rthree\"\r"
                     ",input,int,n,\r";
    REQUIRE(ws_spec_parse_csv("cr.csv", cr, strlen(cr), &s, &e) == 0);
    CHECK_STR(s->sheets[0].desc, "one\ntwo\nthree");
    CHECK_INT(s->sheets[0].fields[0].line, 5);
    ws_spec_free(s);

    const char nul[] = "Form Name,Kind,Type,Name\nA,,worksheet,\n,input,str,x\0y\n";
    CHECK_INT(ws_spec_parse_csv("nul.csv", nul, sizeof nul - 1, &s, &e), GN_EPARSE);
    CHECK_INT(e.line, 3);
    CHECK_CONTAINS(e.msg, "NUL byte");

    CHECK_INT(ws_spec_parse_csv("empty.csv", "", 0, &s, &e), GN_EPARSE);
    CHECK_STR(e.file, "empty.csv");
    CHECK_CONTAINS(e.msg, "no header row");

    /* Booleans in every accepted spelling; a curly apostrophe in the header. */
    const char *b = "Form Name,Kind,Type,Name,Don\xE2\x80\x99t Ask,Required,Confirm\n"
                    "A,,Task,,,,\n"
                    ",input,str,a,True,YES,1\n"
                    ",input,str,b,false,No,0\n"
                    ",input,str,c,,,\n";
    REQUIRE(ws_spec_parse_csv("b.csv", b, strlen(b), &s, &e) == 0);
    CHECK(s->sheets[0].fields[0].dont_ask && s->sheets[0].fields[0].required &&
          s->sheets[0].fields[0].confirm);
    CHECK(!s->sheets[0].fields[1].dont_ask && !s->sheets[0].fields[1].required &&
          !s->sheets[0].fields[1].confirm);
    CHECK(!s->sheets[0].fields[2].required);
    ws_spec_free(s);

    /* Kind and Type disagreeing on a worksheet's row. */
    const char *k = "Form Name,Kind,Type,Name\nA,input,worksheet,\n";
    CHECK_INT(ws_spec_parse_csv("k.csv", k, strlen(k), &s, &e), GN_EPARSE);
    CHECK_INT(e.col, 2);
    CHECK_CONTAINS(e.msg, "does not match");
}

TEST(ws_spec_json_edges)
{
    ws_spec *s;
    gn_err e;
    CHECK_INT(ws_spec_parse_json("t.json", "{\"worksheets\": [", &s, &e), GN_EPARSE);
    CHECK_INT(e.line, 1);
    CHECK_CONTAINS(e.msg, "unexpected end");
    CHECK_INT(ws_spec_parse_json("t.json", "[]", &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "expected an object");
    CHECK_INT(ws_spec_parse_json("t.json", "{\"worksheets\": [], \"x\": 1}", &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "unknown key \"x\"");
    const char *dup = "{\"worksheets\": [{\"name\": \"A\", \"name\": \"B\", \"kind\": \"task\"}]}";
    CHECK_INT(ws_spec_parse_json("t.json", dup, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "worksheets[0]: duplicate key \"name\"");
    const char *lst = "{\"worksheets\": [{\"name\": \"A\", \"kind\": \"worksheet\", \"fields\": ["
                      "{\"name\": \"x\", \"kind\": \"input\", \"type\": \"List[List[str]]\"}]}]}";
    CHECK_INT(ws_spec_parse_json("t.json", lst, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "worksheets[0].fields[0].type: malformed type");
    /* A string containing braces does not shift the object lines. */
    const char *br = "{\"worksheets\": [{\"name\": \"A\", \"kind\": \"worksheet\",\n"
                     " \"description\": \"{not an object\", \"fields\": [\n"
                     " {\"name\": \"x\", \"kind\": \"input\", \"type\": \"str\"},\n"
                     " {\"name\": \"x\", \"kind\": \"input\", \"type\": \"str\"}]}]}";
    CHECK_INT(ws_spec_parse_json("t.json", br, &s, &e), GN_EPARSE);
    CHECK_INT(e.line, 4);
    CHECK_CONTAINS(e.msg, "worksheets[0].fields[1].name: duplicate field 'x'");
}

/* A spec of 100,000 fields loads (in linear time: duplicates are found by
 * sorting once), and a duplicate at its end still names the first one's
 * line; likewise 20,000 enum values. */
TEST(ws_spec_large_loads_and_finds_duplicates)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "Form Name,Kind,Type,Name,Enum Values,Description\nBig,,worksheet,,,A big task.\n");
    for (int i = 0; i < 100000; i++) gn_buf_printf(&b, ",input,str,f%d,,field %d\n", i, i);
    ws_spec *s = NULL;
    gn_err e;
    REQUIRE(ws_spec_parse_csv("big.csv", b.data, b.len, &s, &e) == 0);
    CHECK_INT(s->sheets[0].nfields, 100000);
    CHECK_STR(s->sheets[0].fields[99999].name, "f99999");
    ws_spec_free(s);
    gn_buf_puts(&b, ",input,str,f17,,again\n");
    CHECK_INT(ws_spec_parse_csv("big.csv", b.data, b.len, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "duplicate field 'f17' in worksheet 'Big' (first at line 20)");
    gn_buf_reset(&b);
    gn_buf_puts(&b, "Form Name,Kind,Type,Name,Enum Values,Description\nBig,,worksheet,,,A big task.\n"
                    ",input,Enum,color,,a colour\n");
    for (int i = 0; i < 20000; i++) gn_buf_printf(&b, ",,,,v%d,\n", i);
    REQUIRE(ws_spec_parse_csv("big.csv", b.data, b.len, &s, &e) == 0);
    CHECK_INT(s->sheets[0].fields[0].nenums, 20000);
    ws_spec_free(s);
    gn_buf_puts(&b, ",,,,v5,\n");
    CHECK_INT(ws_spec_parse_csv("big.csv", b.data, b.len, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "duplicate enum value 'v5' of field 'color'");
    gn_buf_release(&b);
}
