/*
 * test_ws_runtime.c — the worksheet runtime: coercion of loosely written
 * values (coerce.h), values (value.h), the dialogue state (state.h), the
 * interpreter's two trust levels (interp.h), the policy turn by turn
 * (policy.h) and the agent acts' prompt and template forms (acts.h).
 *
 * Everything runs on one small spec loaded from text, with "today" fixed
 * at Friday 2026-03-13 and a stub host whose one API is `book`.
 */
#include "harness.h"

#include "util/buf.h"
#include "worksheet/acts.h"
#include "worksheet/coerce.h"
#include "worksheet/consent.h"
#include "worksheet/interp.h"
#include "worksheet/policy.h"
#include "worksheet/spec.h"
#include "worksheet/state.h"
#include "worksheet/value.h"

#include <stdlib.h>

static const ws_date FRI = { 2026, 3, 13 };

/* A task worksheet with: required fields, a Confirm=TRUE field with
 * actions, a predicate-gated field, a nested type field, a non-required
 * enum, a Don't Ask field, an internal and an output field and a
 * `confirm` field; a type; a db worksheet; and a worksheet with one field
 * of every type for coercion. */
static const char SPEC[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,"
    "Confirm,Actions,Form Actions\n"
    ",Book_Restaurant,,,worksheet,book,,Book a table at a restaurant.,,,,,\n"
    ",,,input,str,restaurant,,name of the restaurant,,TRUE,,,\n"
    ",,,input,int,party_size,,number of people,,TRUE,TRUE,\"self.big = self.party_size > 10\n"
    "check(self.party_size <= 20, \"\"we seat at most 20\"\")\",\n"
    ",,self.party_size > 10,input,str,manager,,name of the event manager,,TRUE,,,\n"
    ",,,input,Guest,guest,,who the table is for,,TRUE,,,\n"
    ",,,input,Enum,seating,,where to sit,,,,,\n"
    ",,,,,,indoor,,,,,,\n"
    ",,,,,,outdoor,,,,,,\n"
    ",,,,,,bar,,,,,,\n"
    ",,,input,str,notes,,notes for the restaurant,TRUE,,,,\n"
    ",,,internal,bool,big,,a big party,,,,,\n"
    ",,,input,confirm,confirm_booking,,go ahead with the booking,,TRUE,,,\n"
    ",,,output,str,booking_id,,booking number,,,,,\n"
    ",Guest,,,type,,,A person.,,,,,\n"
    ",,,input,str,name,,full name,,TRUE,,,\n"
    ",,,input,str,phone,,phone number,,,,,\n"
    ",Restaurant,,,db,restaurants,,Restaurants.,,,,,\n"
    ",,,internal; primary,str,name,,name,,,,,\n"
    ",Types,,,worksheet,,,One field of each type.,,,,,\n"
    ",,,input,str,s,,,,,,,\n"
    ",,,input,int,i,,,,,,,\n"
    ",,,input,float,f,,,,,,,\n"
    ",,,input,bool,b,,,,,,,\n"
    ",,,input,date,d,,,,,,,\n"
    ",,,input,time,t,,,,,,,\n"
    ",,,input,Enum,grading,,,,,,,\n"
    ",,,,,,Letter,,,,,,\n"
    ",,,,,,Credit/No Credit,,,,,,\n"
    ",,,input,List[str],ls,,,,,,,\n"
    ",,,input,List[int],li,,,,,,,\n"
    ",,,input,List[Enum],tags,,,,,,,\n"
    ",,,,,,quiet,,,,,,\n"
    ",,,,,,window,,,,,,\n"
    ",,,input,Guest,g,,,,,,,\n"
    ",,,input,confirm,ok,,,,,,,\n";

static ws_spec *spec_of(const char *text)
{
    ws_spec *s = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ws_spec_parse_csv("runtime.csv", text, strlen(text), &s, &e)) {
        char buf[1200];
        th_fail(__FILE__, __LINE__, "spec: %s", gn_err_str(&e, buf, sizeof buf));
        return NULL;
    }
    return s;
}

static ws_spec *spec_new(void) { return spec_of(SPEC); }

static int sheet_ix(const ws_spec *s, const char *name) { return ws_spec_sheet_index(s, name); }

static int field_ix(const ws_spec *s, const char *sheet, const char *name)
{
    return ws_sheet_field_index(ws_spec_sheet(s, sheet), name);
}

static char *val_text(const ws_val *v, const ws_state *st)
{
    gn_buf b;
    gn_buf_init(&b);
    ws_val_print(v, &b, st ? ws_state_recname : NULL, (void *)st);
    return gn_buf_detach(&b);
}

#define CHECK_VAL(v, st, want) do { char *t_ = val_text((v), (st)); CHECK_STR(t_, want); free(t_); } while (0)

static char *json_text(const ws_state *st)
{
    cJSON *j = ws_state_to_json(st);
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

static ws_val *json_val(const char *text)
{
    cJSON *j = cJSON_Parse(text);
    ws_val *v = ws_val_from_json(j);
    cJSON_Delete(j);
    return v;
}

/* ---- coerce ----------------------------------------------------------------- */

/* IN (taken) coerced to field FIELD of Types: a string's text as it is,
 * other values as "type:printed", a refusal as "ERR: why". */
static char *co(const ws_spec *s, const char *field, ws_val *in)
{
    const ws_field *f = ws_sheet_field(ws_spec_sheet(s, "Types"), field);
    gn_buf b;
    gn_buf_init(&b);
    ws_val *out = NULL;
    char why[256] = "";
    if (!f) {
        gn_buf_printf(&b, "no field %s", field);
    } else if (ws_coerce(s, f, &f->type, in, FRI, &out, why, sizeof why)) {
        gn_buf_printf(&b, "ERR: %s", why);
        if (out) gn_buf_puts(&b, " (and an output)");
    } else if (out->kind == WV_STR) {
        gn_buf_puts(&b, out->u.s);
    } else {
        gn_buf_printf(&b, "%s:", ws_val_type(out));
        ws_val_print(out, &b, NULL, NULL);
    }
    ws_val_free(out);
    ws_val_free(in);
    return gn_buf_detach(&b);
}

#define CHECK_CO(field, in, want) do { char *s_ = co(sp, field, in); CHECK_STR(s_, want); free(s_); } while (0)
#define CHECK_COS(field, str, want) CHECK_CO(field, ws_str(str), want)

TEST(ws_runtime_coerce_dates)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    CHECK_INT(ws_date_weekday(FRI), 4);
    CHECK_INT(ws_date_weekday((ws_date){ 1970, 1, 1 }), 3);   /* a Thursday */
    CHECK_INT(ws_date_weekday((ws_date){ 2024, 2, 29 }), 3);
    CHECK_INT(ws_date_weekday((ws_date){ 2000, 1, 3 }), 0);
    char buf[32];
    ws_date_format_long(FRI, buf, sizeof buf);
    CHECK_STR(buf, "Friday, 2026-03-13");
    ws_date_format_long((ws_date){ 2026, 3, 15 }, buf, sizeof buf);
    CHECK_STR(buf, "Sunday, 2026-03-15");
    ws_date d;
    CHECK_INT(ws_date_parse_iso("2026-03-14", &d), 0);
    CHECK(d.y == 2026 && d.m == 3 && d.d == 14);
    CHECK_INT(ws_date_parse_iso("2026-02-30", &d), -1);
    CHECK_INT(ws_date_parse_iso("2026-03-14x", &d), -1);

    CHECK_COS("d", "2026-03-14", "2026-03-14");
    CHECK_COS("d", "2026/3/14", "2026-03-14");
    CHECK_COS("d", "3/14", "2026-03-14");
    CHECK_COS("d", "3/14/2026", "2026-03-14");
    CHECK_COS("d", "3/1", "2027-03-01");             /* the next March 1st */
    CHECK_COS("d", "March 14", "2026-03-14");
    CHECK_COS("d", "march 1", "2027-03-01");
    CHECK_COS("d", "14 March 2027", "2027-03-14");
    CHECK_COS("d", "Mar 14th", "2026-03-14");
    CHECK_COS("d", "Mar. 14", "2026-03-14");
    CHECK_COS("d", "Sat., March 21st, 2026", "2026-03-21");
    CHECK_COS("d", "Friday, March 20", "2026-03-20");
    CHECK_COS("d", "today", "2026-03-13");
    CHECK_COS("d", "Tomorrow", "2026-03-14");
    CHECK_COS("d", "day after tomorrow", "2026-03-15");
    CHECK_COS("d", "friday", "2026-03-13");
    CHECK_COS("d", "this friday", "2026-03-13");
    CHECK_COS("d", "next friday", "2026-03-20");
    CHECK_COS("d", "saturday", "2026-03-14");
    CHECK_COS("d", "on Sat", "2026-03-14");
    CHECK_COS("d", "thursday", "2026-03-19");
    CHECK_COS("d", "2026-02-30", "ERR: \"2026-02-30\" is not a date");
    CHECK_COS("d", "Feb 30", "ERR: \"Feb 30\" is not a date");
    CHECK_COS("d", "soonish", "ERR: \"soonish\" is not a date");
    CHECK_COS("d", "next March 14", "ERR: \"next March 14\" is not a date");
    CHECK_CO("d", ws_int(14), "ERR: \"14\" is not a date");
    CHECK_CO("d", ws_none(), "None:None");
    ws_spec_free(sp);
}

TEST(ws_runtime_coerce_times)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    CHECK_COS("t", "7pm", "19:00");
    CHECK_COS("t", "7 PM", "19:00");
    CHECK_COS("t", "7:30 pm", "19:30");
    CHECK_COS("t", "7.30pm", "19:30");
    CHECK_COS("t", "19:30", "19:30");
    CHECK_COS("t", "19:30:00", "19:30");
    CHECK_COS("t", "1930", "19:30");
    CHECK_COS("t", "noon", "12:00");
    CHECK_COS("t", "midnight", "00:00");
    CHECK_COS("t", "12am", "00:00");
    CHECK_COS("t", "12pm", "12:00");
    CHECK_COS("t", "12:15 a.m.", "00:15");
    CHECK_COS("t", "7 p.m.", "19:00");
    CHECK_COS("t", "7 a m", "07:00");
    CHECK_COS("t", "7pm.", "19:00");
    CHECK_COS("t", "7 amsterdam", "ERR: \"7 amsterdam\" is not a time");
    CHECK_COS("t", "noonish", "ERR: \"noonish\" is not a time");
    CHECK_COS("t", "7 pmx", "ERR: \"7 pmx\" is not a time");
    CHECK_COS("t", "midday", "12:00");
    CHECK_COS("t", "7", "07:00");
    CHECK_COS("t", "7 o'clock", "07:00");
    CHECK_CO("t", ws_int(7), "07:00");
    CHECK_COS("t", "25:00", "ERR: \"25:00\" is not a time");
    CHECK_COS("t", "13pm", "ERR: \"13pm\" is not a time");
    CHECK_COS("t", "7:75", "ERR: \"7:75\" is not a time");
    CHECK_COS("t", "evening", "ERR: \"evening\" is not a time");
    CHECK_CO("t", ws_int(24), "ERR: \"24\" is not a time");
    CHECK_CO("t", ws_none(), "None:None");
    ws_spec_free(sp);
}

TEST(ws_runtime_coerce_numbers_bools)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    CHECK_COS("i", "5", "int:5");
    CHECK_CO("i", ws_int(5), "int:5");
    CHECK_CO("i", ws_float(5.0), "int:5");
    CHECK_COS("i", "five", "int:5");
    CHECK_COS("i", "Twelve", "int:12");
    CHECK_COS("i", "4 units", "int:4");
    CHECK_COS("i", "four people", "int:4");
    CHECK_COS("i", "a couple", "int:2");
    CHECK_COS("i", "couple", "int:2");
    CHECK_COS("i", "A pair", "int:2");
    CHECK_COS("i", "a dozen", "int:12");
    CHECK_COS("i", "an adult", "int:1");
    CHECK_COS("i", "a single person", "int:1");
    CHECK_COS("i", "a few", "ERR: \"a few\" is not a whole number");
    CHECK_COS("i", "a lot", "ERR: \"a lot\" is not a whole number");
    CHECK_COS("i", "a", "ERR: \"a\" is not a whole number");
    CHECK_COS("i", " -3 ", "int:-3");
    CHECK_CO("i", ws_float(4.5), "ERR: 4.5 is not a whole number");
    CHECK_COS("i", "4.5", "ERR: 4.5 is not a whole number");
    CHECK_COS("i", "lots", "ERR: \"lots\" is not a whole number");
    CHECK_COS("i", "4x", "ERR: \"4x\" is not a whole number");
    CHECK_CO("i", ws_bool(1), "ERR: \"True\" is not a whole number");

    CHECK_COS("f", "3.5", "float:3.5");
    CHECK_COS("f", "$12.50", "float:12.5");
    CHECK_CO("f", ws_int(3), "float:3.0");
    CHECK_COS("f", "four", "float:4.0");
    CHECK_COS("f", "cheap", "ERR: \"cheap\" is not a number");

    CHECK_COS("b", "yes", "bool:True");
    CHECK_COS("b", "No", "bool:False");
    CHECK_COS("b", "TRUE", "bool:True");
    CHECK_CO("b", ws_int(1), "bool:True");
    CHECK_CO("b", ws_int(0), "bool:False");
    CHECK_CO("b", ws_bool(0), "bool:False");
    CHECK_CO("b", ws_int(2), "ERR: \"2\" is not yes or no");
    CHECK_COS("b", "maybe", "ERR: \"maybe\" is not yes or no");
    CHECK_COS("ok", "confirmed", "bool:True");
    CHECK_COS("ok", "cancel", "bool:False");

    CHECK_CO("s", ws_int(5), "5");
    CHECK_CO("s", ws_bool(1), "True");
    CHECK_CO("s", json_val("[1]"), "ERR: \"[1]\" is not text");

    CHECK_CO("i", ws_none(), "None:None");
    CHECK_CO("f", ws_none(), "None:None");
    CHECK_CO("b", ws_none(), "None:None");
    CHECK_CO("s", ws_none(), "None:None");
    CHECK_CO("grading", ws_none(), "None:None");
    CHECK_CO("g", ws_none(), "None:None");
    CHECK_CO("ls", ws_none(), "None:None");
    ws_spec_free(sp);
}

TEST(ws_runtime_coerce_enums_lists_records)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    CHECK_COS("grading", "Letter", "Letter");
    CHECK_COS("grading", "letter", "Letter");
    CHECK_COS("grading", "LETTER", "Letter");
    CHECK_COS("grading", "credit no credit", "Credit/No Credit");
    CHECK_COS("grading", "credit/no credit", "Credit/No Credit");
    CHECK_COS("grading", "Credit - No-Credit", "Credit/No Credit");
    CHECK_COS("grading", "Pass", "ERR: \"Pass\" is not one of: Letter, Credit/No Credit");
    /* a near miss naming one value only */
    CHECK_COS("grading", "Letter grade", "Letter");
    CHECK_COS("grading", "for a letter grade please", "ERR: \"for a letter grade please\" is not one of: "
              "Letter, Credit/No Credit");
    CHECK_COS("grading", "credit / no credit basis", "Credit/No Credit");
    CHECK_COS("grading", "Pass/Fail", "ERR: \"Pass/Fail\" is not one of: Letter, Credit/No Credit");
    CHECK_COS("grading", "not letter", "ERR: \"not letter\" is not one of: Letter, Credit/No Credit");
    CHECK_COS("grading", "", "ERR: \"\" is not one of: Letter, Credit/No Credit");
    CHECK_CO("grading", ws_float(2.5), "ERR: \"2.5\" is not one of the options");

    CHECK_COS("ls", "window seat", "list:[\"window seat\"]");
    CHECK_CO("ls", json_val("[\"a\", 2]"), "list:[\"a\", \"2\"]");
    CHECK_CO("li", json_val("[\"1\", \"two\", 3.0]"), "list:[1, 2, 3]");
    CHECK_CO("li", ws_str("5"), "list:[5]");
    CHECK_CO("li", json_val("[1, \"many\"]"), "ERR: \"many\" is not a whole number");
    CHECK_CO("li", json_val("[]"), "list:[]");
    CHECK_CO("tags", json_val("[\"QUIET\", \"Window\"]"), "list:[\"quiet\", \"window\"]");
    CHECK_CO("tags", ws_str("window"), "list:[\"window\"]");
    CHECK_CO("tags", ws_str("loud"), "ERR: \"loud\" is not one of: quiet, window");

    CHECK_CO("g", ws_recref(3), "record:record_3");
    CHECK_CO("g", ws_str("Ann"), "ERR: expected a Guest record");
    CHECK_CO("g", json_val("{\"name\": \"Ann\"}"), "ERR: expected a Guest record");
    ws_spec_free(sp);
}

/* ---- value ------------------------------------------------------------------- */

TEST(ws_runtime_value_equal_compare_truthy)
{
    ws_val *i1 = ws_int(1), *f1 = ws_float(1.0), *bt = ws_bool(1), *i2 = ws_int(2), *s2 = ws_str("2");
    ws_val *n1 = ws_none(), *n2 = ws_none(), *f15 = ws_float(1.5);
    CHECK(ws_val_equal(i1, f1));
    CHECK(ws_val_equal(i1, bt));
    CHECK(ws_val_equal(f1, bt));
    CHECK(!ws_val_equal(i1, i2));
    CHECK(!ws_val_equal(i2, s2));
    CHECK(ws_val_equal(n1, n2));
    CHECK(!ws_val_equal(n1, i1));
    CHECK(!ws_val_equal(i1, f15));
    CHECK(!ws_val_equal(i1, NULL));

    ws_val *l1 = json_val("[1, \"a\", [true]]"), *l2 = json_val("[1.0, \"a\", [1]]"), *l3 = json_val("[1, \"a\"]");
    CHECK(ws_val_equal(l1, l2));
    CHECK(!ws_val_equal(l1, l3));
    ws_val *d1 = json_val("{\"a\": 1, \"b\": \"x\"}"), *d2 = json_val("{\"b\": \"x\", \"a\": 1.0}");
    ws_val *d3 = json_val("{\"a\": 1, \"c\": \"x\"}");
    CHECK(ws_val_equal(d1, d2));
    CHECK(!ws_val_equal(d1, d3));
    ws_val *r1 = ws_recref(4), *r2 = ws_recref(4), *r3 = ws_recref(5);
    CHECK(ws_val_equal(r1, r2));
    CHECK(!ws_val_equal(r1, r3));
    CHECK(!ws_val_equal(r1, ws_dict_get(d1, "a")));

    int c = 9;
    CHECK_INT(ws_val_compare(i1, f15, &c), 0);
    CHECK_INT(c, -1);
    CHECK_INT(ws_val_compare(i2, f15, &c), 0);
    CHECK_INT(c, 1);
    CHECK_INT(ws_val_compare(i1, bt, &c), 0);
    CHECK_INT(c, 0);
    ws_val *sa = ws_str("apple"), *sb = ws_str("banana");
    CHECK_INT(ws_val_compare(sa, sb, &c), 0);
    CHECK_INT(c, -1);
    CHECK_INT(ws_val_compare(sb, sa, &c), 0);
    CHECK_INT(c, 1);
    CHECK_INT(ws_val_compare(sa, i1, &c), -1);
    CHECK_INT(ws_val_compare(n1, i1, &c), -1);
    ws_val *la = json_val("[1, 2]"), *lb = json_val("[1, 3]"), *lc = json_val("[1]");
    CHECK_INT(ws_val_compare(la, lb, &c), 0);
    CHECK_INT(c, -1);
    CHECK_INT(ws_val_compare(lc, la, &c), 0);
    CHECK_INT(c, -1);
    CHECK_INT(ws_val_compare(la, la, &c), 0);
    CHECK_INT(c, 0);

    /* Truthiness: None, False, 0, 0.0, "", [] and {} are false. */
    const char *falsy[] = { "null", "false", "0", "0.0", "\"\"", "[]", "{}" };
    const char *truthy[] = { "true", "1", "-1", "0.5", "\" \"", "[0]", "{\"a\": null}" };
    for (size_t i = 0; i < sizeof falsy / sizeof *falsy; i++) {
        ws_val *v = json_val(falsy[i]);
        if (ws_val_truthy(v)) th_fail(__FILE__, __LINE__, "%s is truthy", falsy[i]);
        ws_val_free(v);
        v = json_val(truthy[i]);
        if (!ws_val_truthy(v)) th_fail(__FILE__, __LINE__, "%s is falsy", truthy[i]);
        ws_val_free(v);
    }
    ws_val *ff = ws_float(0.0);
    CHECK(!ws_val_truthy(ff));
    CHECK(ws_val_truthy(r1));
    CHECK(!ws_val_truthy(NULL));

    CHECK_STR(ws_val_type(i1), "int");
    CHECK_STR(ws_val_type(f1), "float");
    CHECK_STR(ws_val_type(r1), "record");
    CHECK_STR(ws_val_type(d1), "dict");
    CHECK_STR(ws_val_type(NULL), "None");

    ws_val *all[] = { i1, f1, bt, i2, s2, n1, n2, f15, l1, l2, l3, d1, d2, d3, r1, r2, r3, sa, sb, la, lb, lc, ff };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) ws_val_free(all[i]);
}

static const char *names_fn(int id, void *ud)
{
    (void)ud;
    return id == 7 ? "book_restaurant" : NULL;
}

TEST(ws_runtime_value_print)
{
    ws_val *s = ws_str("say \"hi\"\\ now\nthen\ttab\x01 caf\xC3\xA9");
    CHECK_VAL(s, NULL, "\"say \\\"hi\\\"\\\\ now\\nthen\\ttab\\x01 caf\xC3\xA9\"");
    ws_val_free(s);

    /* Floats print so that reading them back gives the same double, and
     * always look like floats. */
    double fs[] = { 2.5, 3.0, 0.1, 0.1 + 0.2, 1.0 / 3.0, 1e20, -0.0, 123456789.125, 5e-324 };
    const char *want[] = { "2.5", "3.0", "0.1", "0.30000000000000004", "0.33333333333333331",
                           "1e+20", "-0.0", "123456789.125", "4.94065645841247e-324" };
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
        ws_val *v = ws_float(fs[i]);
        char *t = val_text(v, NULL);
        CHECK_STR(t, want[i]);
        if (strtod(t, NULL) != fs[i]) th_fail(__FILE__, __LINE__, "%s does not read back", t);
        free(t);
        ws_val_free(v);
    }

    ws_val *d = json_val("{\"k\": [null, true, false, 3, \"x\"], \"e\": {}, \"l\": []}");
    CHECK_VAL(d, NULL, "{\"k\": [None, True, False, 3, \"x\"], \"e\": {}, \"l\": []}");
    ws_val_free(d);

    ws_val *l = ws_list();
    ws_list_add(l, ws_recref(7));
    ws_list_add(l, ws_recref(8));
    gn_buf b;
    gn_buf_init(&b);
    ws_val_print(l, &b, names_fn, NULL);
    CHECK_STR(b.data, "[book_restaurant, record_8]");
    gn_buf_release(&b);
    CHECK_VAL(l, NULL, "[record_7, record_8]");
    ws_val_free(l);
}

TEST(ws_runtime_value_json_round_trip)
{
    ws_val *d = ws_dict();
    ws_dict_set(d, "n", ws_none());
    ws_dict_set(d, "b", ws_bool(1));
    ws_dict_set(d, "i", ws_int(-42));
    ws_dict_set(d, "f", ws_float(2.5));
    ws_dict_set(d, "s", ws_str("caf\xC3\xA9 \"q\""));
    ws_dict_set(d, "r", ws_recref(3));
    ws_val *l = ws_list();
    ws_list_add(l, ws_recref(12));
    ws_list_add(l, ws_str("x"));
    ws_list_add(l, ws_dict());
    ws_dict_set(d, "l", l);
    ws_dict_set(d, "i", ws_int(42));              /* replaces, keeps its place */
    CHECK_INT(d->u.c.n, 7);
    CHECK_STR(d->u.c.keys[2], "i");

    cJSON *j = ws_val_to_json(d);
    char *txt = cJSON_PrintUnformatted(j);
    CHECK_STR(txt, "{\"n\":null,\"b\":true,\"i\":42,\"f\":2.5,\"s\":\"caf\xC3\xA9 \\\"q\\\"\","
                   "\"r\":{\"$record\":3},\"l\":[{\"$record\":12},\"x\",{}]}");
    ws_val *back = ws_val_from_json(j);
    CHECK(ws_val_equal(d, back));
    CHECK_INT(ws_dict_get(back, "r")->kind, WV_REC);
    CHECK_INT(ws_dict_get(back, "r")->u.rec, 3);
    CHECK_INT(ws_dict_get(back, "l")->u.c.items[0]->kind, WV_REC);
    CHECK_INT(ws_dict_get(back, "i")->kind, WV_INT);
    CHECK_INT(ws_dict_get(back, "f")->kind, WV_FLOAT);
    CHECK_VAL(back, NULL, "{\"n\": None, \"b\": True, \"i\": 42, \"f\": 2.5, \"s\": \"caf\xC3\xA9 \\\"q\\\"\", "
                          "\"r\": record_3, \"l\": [record_12, \"x\", {}]}");
    ws_val *copy = ws_val_copy(back);
    CHECK(ws_val_equal(copy, d));
    ws_val_free(copy);
    cJSON_Delete(j);
    free(txt);
    ws_val_free(back);
    ws_val_free(d);

    /* An object with "$record" and anything else stays a dict. */
    ws_val *o = json_val("{\"$record\": 3, \"x\": 1}");
    CHECK_INT(o->kind, WV_DICT);
    ws_val_free(o);
    o = json_val("{\"$record\": \"3\"}");
    CHECK_INT(o->kind, WV_DICT);
    ws_val_free(o);

    /* Raw items hold a number's exact text (a SUQL result's numbers). */
    cJSON *raw = cJSON_CreateRaw("9007199254740993");
    o = ws_val_from_json(raw);
    CHECK(o->kind == WV_INT && o->u.i == 9007199254740993LL);
    ws_val_free(o);
    cJSON_Delete(raw);
    raw = cJSON_CreateRaw("0.30000000000000004");
    o = ws_val_from_json(raw);
    CHECK(o->kind == WV_FLOAT && o->u.f == 0.1 + 0.2);
    ws_val_free(o);
    cJSON_Delete(raw);
    raw = cJSON_CreateRaw("4");
    o = ws_val_from_json(raw);
    CHECK(o->kind == WV_INT && o->u.i == 4);
    ws_val_free(o);
    cJSON_Delete(raw);
}

/* ---- state ------------------------------------------------------------------- */

TEST(ws_runtime_state_naming)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = ws_state_new(sp, FRI);
    st->turn = 3;
    int bs = sheet_ix(sp, "Book_Restaurant"), gs = sheet_ix(sp, "Guest");
    int gf = field_ix(sp, "Book_Restaurant", "guest");
    ws_record *a = ws_state_new_task(st, bs, -1, -1);
    ws_record *b = ws_state_new_task(st, bs, -1, -1);
    CHECK_STR(a->var, "book_restaurant");
    CHECK_STR(b->var, "book_restaurant_2");
    CHECK_INT(a->kind, WR_TASK);
    CHECK_INT(a->created_turn, 3);
    CHECK_INT(a->parent, -1);
    CHECK_INT(a->parent_field, -1);
    CHECK(a->id != b->id);
    ws_record *c = ws_state_new_task(st, gs, a->id, gf);
    ws_record *c2 = ws_state_new_task(st, gs, b->id, gf);
    CHECK_STR(c->var, "guest");
    CHECK_STR(c2->var, "guest_2");
    CHECK_INT(c->parent, a->id);
    CHECK_INT(c->parent_field, gf);
    CHECK(!a->slots[gf].val);                  /* the parent's slot is not touched */
    ws_record *g = ws_state_new_task(st, gs, -1, -1);
    CHECK_STR(g->var, "guest_3");
    ws_record *k1 = ws_state_new_kb(st, "cheap sushi");
    ws_record *k2 = ws_state_new_kb(st, "open late");
    CHECK_STR(k1->var, "answer_1");
    CHECK_STR(k2->var, "answer_2");
    CHECK_STR(k1->question, "cheap sushi");
    CHECK_INT(k1->kind, WR_KB);
    CHECK_INT(k1->target, -1);
    CHECK(ws_state_latest_kb(st) == k2);
    CHECK(ws_state_var(st, "guest_2") == c2);
    CHECK(ws_state_var(st, "nobody") == NULL);
    CHECK(ws_state_rec(st, c->id) == c);
    CHECK(ws_state_rec(st, 999) == NULL);
    CHECK_STR(ws_state_recname(k2->id, st), "answer_2");
    CHECK(ws_state_recname(999, st) == NULL);
    ws_state_free(st);

    st = ws_state_new(sp, FRI);
    CHECK(ws_state_latest_kb(st) == NULL);
    ws_state_free(st);
    ws_spec_free(sp);
}

TEST(ws_runtime_state_set_and_unconfirm)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = ws_state_new(sp, FRI);
    st->turn = 2;
    int bs = sheet_ix(sp, "Book_Restaurant"), gs = sheet_ix(sp, "Guest");
    int rf = field_ix(sp, "Book_Restaurant", "restaurant");
    int pf = field_ix(sp, "Book_Restaurant", "party_size");
    int gf = field_ix(sp, "Book_Restaurant", "guest");
    int cf = field_ix(sp, "Book_Restaurant", "confirm_booking");
    int nf = field_ix(sp, "Guest", "name");
    ws_record *r = ws_state_new_task(st, bs, -1, -1);
    char why[256];

    ws_val *v = ws_str("four");
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), 0);
    ws_val_free(v);
    CHECK(ws_slot_filled(&r->slots[pf]));
    CHECK_VAL(r->slots[pf].val, NULL, "4");
    CHECK_INT(r->slots[pf].set_turn, 2);
    r->slots[pf].confirmed = r->slots[pf].acted = 1;

    /* The same value again keeps the confirmation; a new one loses it. */
    v = ws_int(4);
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), 0);
    ws_val_free(v);
    CHECK_INT(r->slots[pf].confirmed, 1);
    CHECK_INT(r->slots[pf].acted, 1);
    v = ws_int(5);
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), 0);
    ws_val_free(v);
    CHECK_INT(r->slots[pf].confirmed, 0);
    CHECK_INT(r->slots[pf].acted, 0);

    /* A refused value leaves the slot unset, with why. */
    st->turn = 3;
    why[0] = 0;
    v = ws_str("lots");
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), -1);
    ws_val_free(v);
    CHECK_STR(why, "\"lots\" is not a whole number");
    CHECK(r->slots[pf].val == NULL);
    CHECK(!ws_slot_filled(&r->slots[pf]));
    CHECK_STR(r->slots[pf].why, "\"lots\" is not a whole number");
    v = ws_int(6);
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), 0);
    ws_val_free(v);
    CHECK(r->slots[pf].why == NULL);

    /* None clears: the slot holds None, which is not filled. */
    v = ws_none();
    CHECK_INT(ws_state_set(st, r, pf, v, why, sizeof why), 0);
    ws_val_free(v);
    CHECK(!ws_slot_filled(&r->slots[pf]));

    /* Changing another field clears the record's `confirm` field. */
    ws_val *yes = ws_str("yes"), *nobu = ws_str("Nobu"), *zuma = ws_str("Zuma");
    CHECK_INT(ws_state_set(st, r, cf, yes, why, sizeof why), 0);
    CHECK_VAL(r->slots[cf].val, NULL, "True");
    CHECK_INT(ws_state_set(st, r, rf, nobu, why, sizeof why), 0);
    CHECK(r->slots[cf].val == NULL);
    CHECK_INT(ws_state_set(st, r, cf, yes, why, sizeof why), 0);
    CHECK_INT(ws_state_set(st, r, rf, nobu, why, sizeof why), 0);   /* unchanged */
    CHECK(ws_slot_filled(&r->slots[cf]));
    CHECK_INT(ws_state_set(st, r, rf, zuma, why, sizeof why), 0);
    CHECK(r->slots[cf].val == NULL);

    /* ... and so does changing a field of a record nested in it. */
    ws_record *g = ws_state_new_task(st, gs, r->id, gf);
    ws_val *ref = ws_recref(g->id);
    CHECK_INT(ws_state_set(st, r, gf, ref, why, sizeof why), 0);
    ws_val_free(ref);
    CHECK_INT(ws_state_set(st, r, cf, yes, why, sizeof why), 0);
    ws_val *ann = ws_str("Ann");
    CHECK_INT(ws_state_set(st, g, nf, ann, why, sizeof why), 0);
    CHECK(r->slots[cf].val == NULL);
    CHECK_VAL(g->slots[nf].val, NULL, "\"Ann\"");

    /* A record nested two deep reaches the top. */
    int tf = field_ix(sp, "Types", "g"), of = field_ix(sp, "Types", "ok");
    ws_record *t = ws_state_new_task(st, sheet_ix(sp, "Types"), -1, -1);
    ws_record *tg = ws_state_new_task(st, gs, t->id, tf);
    CHECK_INT(ws_state_set(st, t, of, yes, why, sizeof why), 0);
    CHECK_INT(ws_state_set(st, tg, nf, ann, why, sizeof why), 0);
    CHECK(t->slots[of].val == NULL);

    ws_state_clear(st, g, nf);
    CHECK(g->slots[nf].val == NULL);
    CHECK_INT(g->slots[nf].set_turn, 3);
    ws_val_free(yes);
    ws_val_free(nobu);
    ws_val_free(zuma);
    ws_val_free(ann);
    ws_state_free(st);
    ws_spec_free(sp);
}

static void set(ws_state *st, ws_record *r, const char *field, ws_val *v)
{
    char why[256];
    int fi = ws_sheet_field_index(&st->spec->sheets[r->sheet], field);
    if (fi < 0 || ws_state_set(st, r, fi, v, why, sizeof why))
        th_fail(__FILE__, __LINE__, "setting %s.%s failed: %s", r->var, field, fi < 0 ? "no field" : why);
    ws_val_free(v);
}

/* The state of the print and JSON tests: a task with a nested record, a
 * done one with an API result, an abandoned one, two knowledge records and
 * one record of every type. */
static ws_state *sample_state(const ws_spec *sp)
{
    ws_state *st = ws_state_new(sp, FRI);
    st->turn = 1;
    int bs = sheet_ix(sp, "Book_Restaurant");
    ws_record *r = ws_state_new_task(st, bs, -1, -1);
    set(st, r, "restaurant", ws_str("Nobu \"Downtown\""));
    set(st, r, "party_size", ws_int(4));
    ws_record *g = ws_state_new_task(st, sheet_ix(sp, "Guest"), r->id, field_ix(sp, "Book_Restaurant", "guest"));
    set(st, g, "name", ws_str("Ann"));
    set(st, r, "guest", ws_recref(g->id));
    set(st, r, "seating", ws_str("Bar"));
    r->slots[field_ix(sp, "Book_Restaurant", "party_size")].confirmed = 1;
    r->slots[field_ix(sp, "Book_Restaurant", "notes")].asked = 1;
    st->turn = 2;
    ws_record *d = ws_state_new_task(st, bs, -1, -1);
    set(st, d, "restaurant", ws_str("Zuma"));
    d->done = 1;
    d->api_result = json_val("{\"booking_id\": \"B-7\"}");
    ws_record *x = ws_state_new_task(st, bs, -1, -1);
    x->abandoned = 1;
    x->by_agent = 1;
    ws_record *k1 = ws_state_new_kb(st, "old question");
    k1->ran = 1;
    k1->result = json_val("[{\"name\": \"Old\"}]");
    ws_record *k2 = ws_state_new_kb(st, "cheap \"sushi\"");
    k2->ran = 1;
    k2->suql = strdup("SELECT * FROM restaurants");
    char long_text[251];
    memset(long_text, 'x', 250);
    long_text[250] = 0;
    k2->result = ws_list();
    ws_val *row = ws_dict();
    ws_dict_set(row, "name", ws_str("A"));
    ws_dict_set(row, "review", ws_str(long_text));
    ws_list_add(k2->result, row);
    row = json_val("{\"name\": \"B\"}");
    ws_dict_set(row, "rating", ws_float(4.5));
    ws_list_add(k2->result, row);
    ws_list_add(k2->result, json_val("{\"name\": \"C\"}"));
    k2->target = r->id;
    k2->target_field = 0;
    ws_record *t = ws_state_new_task(st, sheet_ix(sp, "Types"), -1, -1);
    set(st, t, "f", ws_float(3.0));
    set(st, t, "d", ws_str("next friday"));
    set(st, t, "t", ws_str("7pm"));
    set(st, t, "b", ws_str("yes"));
    set(st, t, "tags", ws_str("quiet"));
    set(st, t, "li", json_val("[1.0, 2]"));
    char why[128];
    ws_val *bad = ws_str("lots");
    ws_state_set(st, t, field_ix(sp, "Types", "i"), bad, why, sizeof why);
    ws_val_free(bad);
    return st;
}

/* Finished answers and tasks are forgotten KEEP turns after their last
 * activity; live tasks, the latest answer and anything a kept record
 * refers to stay; answer numbering keeps going up. */
TEST(ws_runtime_state_forget)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = ws_state_new(sp, FRI);
    int bs = sheet_ix(sp, "Book_Restaurant"), gs = sheet_ix(sp, "Guest");
    int gf = field_ix(sp, "Book_Restaurant", "guest");
    st->turn = 1;
    ws_record *live = ws_state_new_task(st, bs, -1, -1);    /* never done */
    ws_record *done = ws_state_new_task(st, bs, -1, -1);
    ws_record *dg = ws_state_new_task(st, gs, done->id, gf);
    set(st, done, "guest", ws_recref(dg->id));
    done->done = 1;
    ws_record *late = ws_state_new_task(st, bs, -1, -1);    /* done, touched at 8 */
    late->abandoned = 1;
    ws_record *old = ws_state_new_kb(st, "old");
    old->ran = 1;
    ws_record *pend = ws_state_new_kb(st, "pending");
    pend->target = live->id;
    pend->target_field = 0;
    ws_record *refd = ws_state_new_kb(st, "referred to");
    refd->ran = 1;
    set(st, live, "notes", ws_str("see answer"));
    live->api_result = ws_list();
    ws_list_add(live->api_result, ws_recref(refd->id));
    int late_id = late->id, done_id = done->id, dg_id = dg->id, old_id = old->id;
    int live_id = live->id, pend_id = pend->id, refd_id = refd->id;
    st->turn = 8;
    set(st, late, "restaurant", ws_str("Zuma"));
    ws_record *last = ws_state_new_kb(st, "latest");
    last->ran = 1;
    int last_id = last->id;

    st->turn = 10;                     /* nothing is 10 turns old yet */
    CHECK_INT(ws_state_forget(st, 10), 0);
    st->turn = 11;                     /* turn 1's finished records go */
    CHECK_INT(ws_state_forget(st, 10), 4);
    CHECK(ws_state_rec(st, done_id) == NULL);
    CHECK(ws_state_rec(st, dg_id) == NULL);       /* nested in a forgotten task */
    CHECK(ws_state_rec(st, old_id) == NULL);
    CHECK(ws_state_rec(st, live_id) != NULL);
    CHECK(ws_state_rec(st, pend_id) == NULL);     /* only a turn's own queries run */
    CHECK(ws_state_rec(st, refd_id) != NULL);
    CHECK(ws_state_rec(st, late_id) != NULL);
    CHECK(ws_state_rec(st, last_id) != NULL);
    st->turn = 30;                     /* the latest answer stays however old */
    CHECK_INT(ws_state_forget(st, 10), 1);
    CHECK(ws_state_rec(st, late_id) == NULL);
    CHECK(ws_state_latest_kb(st) && ws_state_latest_kb(st)->id == last_id);
    ws_record *next = ws_state_new_kb(st, "next");
    CHECK_STR(next->var, "answer_5");  /* after answer_4, though 3 remain */
    CHECK(next->id > last_id);

    /* A live task referring to a record nested in a finished one keeps the
     * finished one too: a nested record never loses its parent. */
    ws_record *old_task = ws_state_new_task(st, bs, -1, -1);
    ws_record *g = ws_state_new_task(st, gs, old_task->id, gf);
    set(st, old_task, "guest", ws_recref(g->id));
    old_task->done = 1;
    ws_record *again = ws_state_new_task(st, bs, -1, -1);
    set(st, again, "guest", ws_recref(g->id));
    int task_id = old_task->id, g_id = g->id;
    st->turn = 60;
    ws_state_forget(st, 10);
    CHECK(ws_state_rec(st, g_id) != NULL);
    CHECK(ws_state_rec(st, task_id) != NULL);
    gn_buf b;
    gn_buf_init(&b);
    ws_state_print(st, 3, &b);                 /* walks every parent chain */
    CHECK(b.len > 0);
    gn_buf_release(&b);
    ws_state_free(st);

    /* A saved state with a dangling parent loads with the record on its own. */
    ws_state *back = NULL;
    gn_err e;
    cJSON *j = cJSON_Parse("{\"turn\": 3, \"next_id\": 9, \"records\": [{\"id\": 4, \"kind\": \"task\","
                           " \"var\": \"guest\", \"worksheet\": \"Guest\", \"parent\": 2, \"parent_field\": 3}]}");
    REQUIRE(j);
    CHECK_INT(ws_state_from_json(sp, j, FRI, &back, &e), 0);
    if (back) {
        CHECK_INT(back->recs[0]->parent, -1);
        ws_state_free(back);
    }
    cJSON_Delete(j);
    ws_spec_free(sp);
}

TEST(ws_runtime_state_print)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = sample_state(sp);
    gn_buf b;
    gn_buf_init(&b);
    ws_state_print(st, 2, &b);
    /* The latest result with its short values (the 200-character review
     * left out), the one before it by its rows' first values. */
    char *want = NULL;
    if (asprintf(&want,
                 "guest = Guest(name=\"Ann\")\n"
                 "book_restaurant = Book_Restaurant(restaurant=\"Nobu \\\"Downtown\\\"\", party_size=4, "
                 "guest=guest, seating=\"bar\")\n"
                 "book_restaurant_2 = Book_Restaurant(restaurant=\"Zuma\")  # done\n"
                 "book_restaurant_2.result = {\"booking_id\": \"B-7\"}\n"
                 "book_restaurant_3 = Book_Restaurant()  # abandoned\n"
                 "types = Types(f=3.0, b=True, d=\"2026-03-20\", t=\"19:00\", li=[1, 2], tags=[\"quiet\"])\n"
                 "answer_1 = answer(\"old question\")\n"
                 "answer_1.result = [{\"name\": \"Old\"}]\n"
                 "answer_2 = answer(\"cheap \\\"sushi\\\"\")\n"
                 "answer_2.result = [{\"name\": \"A\"}, {\"name\": \"B\", \"rating\": 4.5}]  "
                 "# 3 rows, first 2 shown\n") < 0)
        want = NULL;
    CHECK_STR(b.data, want);
    free(want);

    /* All rows when they fit; an error instead of a result. */
    gn_buf_reset(&b);
    ws_state_print(st, 5, &b);
    CHECK_CONTAINS(b.data, "{\"name\": \"C\"}]\n");
    CHECK(!strstr(b.data, "rows, first"));
    ws_record *k3 = ws_state_new_kb(st, "broken");
    k3->error = strdup("no such column: foo");
    gn_buf_reset(&b);
    ws_state_print(st, 5, &b);
    CHECK_CONTAINS(b.data, "answer_3 = answer(\"broken\")\nanswer_3.error = \"no such column: foo\"\n");
    /* answer_2 just before it, with its short values (a rating asked
     * about a question later); answer_1, older, by its rows' first values */
    CHECK_CONTAINS(b.data, "answer_2.result = [{\"name\": \"A\"}, {\"name\": \"B\", \"rating\": 4.5}, "
                           "{\"name\": \"C\"}]\nanswer_3 = ");
    ws_record *k4 = ws_state_new_kb(st, "later");
    (void)k4;
    gn_buf_reset(&b);
    ws_state_print(st, 5, &b);
    CHECK_CONTAINS(b.data, "answer_2.result = [{\"name\": \"A\"}, {\"name\": \"B\"}, {\"name\": \"C\"}]\n"
                           "answer_3 = ");
    gn_buf_release(&b);
    ws_state_free(st);
    ws_spec_free(sp);
}

TEST(ws_runtime_state_json_round_trip)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = sample_state(sp);
    char *j1 = json_text(st);
    cJSON *j = cJSON_Parse(j1);
    ws_state *back = NULL;
    gn_err e;
    gn_err_clear(&e);
    REQUIRE(ws_state_from_json(sp, j, FRI, &back, &e) == 0);
    cJSON_Delete(j);
    char *j2 = json_text(back);
    CHECK_STR(j2, j1);
    CHECK_INT(back->n, st->n);
    CHECK_INT(back->next_id, st->next_id);
    CHECK_INT(back->turn, st->turn);
    for (int i = 0; i < st->n && i < back->n; i++) {
        CHECK_INT(back->recs[i]->id, st->recs[i]->id);
        CHECK_STR(back->recs[i]->var, st->recs[i]->var);
        CHECK_INT(back->recs[i]->parent, st->recs[i]->parent);
        CHECK_INT(back->recs[i]->by_agent, st->recs[i]->by_agent);
    }
    ws_record *r = ws_state_var(back, "book_restaurant");
    REQUIRE(r);
    CHECK_INT(r->slots[field_ix(sp, "Book_Restaurant", "party_size")].confirmed, 1);
    CHECK_INT(r->slots[field_ix(sp, "Book_Restaurant", "notes")].asked, 1);
    CHECK_STR(ws_state_var(back, "answer_2")->suql, "SELECT * FROM restaurants");
    /* The refused value's reason survives (the agent says it when it asks). */
    ws_record *t = ws_state_var(back, "types");
    REQUIRE(t);
    CHECK_STR(t->slots[field_ix(sp, "Types", "i")].why, "\"lots\" is not a whole number");

    /* The prompt form is the same after a save and a load (a float field
     * holding 3.0 still prints 3.0).  Untyped values (knowledge results,
     * API results) keep JSON's one number kind: a row's 4.0 comes back 4,
     * which is why the sample's rating is 4.5. */
    gn_buf b1, b2;
    gn_buf_init(&b1);
    gn_buf_init(&b2);
    ws_state_print(st, 5, &b1);
    ws_state_print(back, 5, &b2);
    CHECK_STR(b2.data, b1.data);
    gn_buf_release(&b1);
    gn_buf_release(&b2);

    /* Records made after the load get fresh ids and names. */
    ws_record *n = ws_state_new_task(back, sheet_ix(sp, "Book_Restaurant"), -1, -1);
    CHECK_STR(n->var, "book_restaurant_4");
    CHECK(ws_state_rec(back, n->id) == n);
    CHECK_INT(n->id, st->next_id);

    /* Misfits. */
    ws_state *bad = NULL;
    cJSON *x = cJSON_Parse("{\"records\": [{\"kind\": \"task\", \"var\": \"x\", \"worksheet\": \"Nope\"}]}");
    CHECK_INT(ws_state_from_json(sp, x, FRI, &bad, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, "Nope");
    cJSON_Delete(x);
    x = cJSON_Parse("[1]");
    CHECK_INT(ws_state_from_json(sp, x, FRI, &bad, &e), GN_ECORRUPT);
    cJSON_Delete(x);
    x = cJSON_Parse("{\"records\": [{\"var\": \"x\"}]}");
    CHECK_INT(ws_state_from_json(sp, x, FRI, &bad, &e), GN_ECORRUPT);
    cJSON_Delete(x);

    free(j1);
    free(j2);
    ws_state_free(back);
    ws_state_free(st);
    ws_spec_free(sp);
}

/* ---- interp ------------------------------------------------------------------ */

typedef struct stub {
    int calls;
    int fail;                 /* fail this many calls from now */
    char last[512];           /* name(args) of the last call */
    ws_val *ret;              /* what a call returns (copied); NULL: a dict */
} stub;

static int stub_has(void *ud, const char *name)
{
    (void)ud;
    return !strcmp(name, "book");
}

static int stub_call(void *ud, const char *name, const ws_val *args, ws_val **out, gn_err *e)
{
    stub *s = ud;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "%s(", name);
    ws_val_print(args, &b, NULL, NULL);
    gn_buf_putc(&b, ')');
    snprintf(s->last, sizeof s->last, "%s", b.data);
    gn_buf_release(&b);
    s->calls++;
    if (s->fail) {
        s->fail--;
        return gn_err_set(e, GN_ENET, "no table free");
    }
    *out = s->ret ? ws_val_copy(s->ret) : json_val("{\"booking_id\": \"B-1\"}");
    return 0;
}

typedef struct world {
    ws_spec *spec;
    ws_state *st;
    ws_acts acts;
    stub stub;
    ws_host host;
    ws_interp in;
    gn_buf warns;
} world;

static world *world_of(const char *spec_text)
{
    world *w = calloc(1, sizeof *w);
    w->spec = spec_of(spec_text);
    if (!w->spec) {
        free(w);
        return NULL;
    }
    w->st = ws_state_new(w->spec, FRI);
    w->st->turn = 1;
    ws_acts_init(&w->acts);
    w->host = (ws_host){ stub_has, stub_call, &w->stub };
    w->in = (ws_interp){ .st = w->st, .acts = &w->acts, .host = &w->host, .mode = WS_MODE_PARSER,
                         .self = -1, .self_field = -1, .utterance = "yes" };
    gn_buf_init(&w->warns);
    return w;
}

static world *world_new(void) { return world_of(SPEC); }

static void world_free(world *w)
{
    if (!w) return;
    ws_acts_release(&w->acts);
    ws_state_free(w->st);
    ws_spec_free(w->spec);
    ws_val_free(w->stub.ret);
    gn_buf_release(&w->warns);
    free(w);
}

/* Parse and run SRC in the interpreter's current mode; -99 when SRC does
 * not parse. */
static int run(world *w, const char *src, gn_err *e)
{
    ws_prog *p = NULL;
    gn_err_clear(e);
    if (ws_prog_parse(src, 1, 1, &p, e)) {
        th_fail(__FILE__, __LINE__, "%s does not parse: %s", src, e->msg);
        return -99;
    }
    int rc = ws_run_prog(&w->in, p, e);
    ws_prog_free(p);
    return rc;
}

static void ok_at(world *w, const char *src, int line)
{
    gn_err e;
    if (run(w, src, &e)) th_fail(__FILE__, line, "%s refused: %s", src, e.msg);
}
#define OK(w, src) ok_at(w, src, __LINE__)

/* SRC is refused with a message containing MSG, and the state and the
 * acts are exactly as before. */
static void refused_at(world *w, const char *src, const char *msg, int line)
{
    char *before = json_text(w->st);
    int nacts = w->acts.n;
    gn_err e;
    int rc = run(w, src, &e);
    if (rc != GN_EPARSE) th_fail(__FILE__, line, "%s: rc %d, expected GN_EPARSE", src, rc);
    else if (!strstr(e.msg, msg)) th_fail(__FILE__, line, "%s: message \"%s\" lacks \"%s\"", src, e.msg, msg);
    else if (!e.line || !e.col) th_fail(__FILE__, line, "%s: no position", src);
    char *after = json_text(w->st);
    if (strcmp(before, after)) th_fail(__FILE__, line, "%s changed the state:\n  %s\n  %s", src, before, after);
    if (w->acts.n != nacts) th_fail(__FILE__, line, "%s added acts", src);
    free(before);
    free(after);
}
#define REFUSED(w, src, msg) refused_at(w, src, msg, __LINE__)

static ws_slot *slot(world *w, const char *var, const char *field)
{
    ws_record *r = ws_state_var(w->st, var);
    int fi = r && r->kind == WR_TASK ? ws_sheet_field_index(&w->spec->sheets[r->sheet], field) : -1;
    if (fi < 0) {
        static ws_slot none;
        th_fail(__FILE__, __LINE__, "no slot %s.%s", var, field);
        memset(&none, 0, sizeof none);
        return &none;
    }
    return &r->slots[fi];
}

static char *slot_text(world *w, const char *var, const char *field)
{
    ws_slot *s = slot(w, var, field);
    return s->val ? val_text(s->val, w->st) : strdup("unset");
}

#define CHECK_SLOT(w, var, field, want) do { char *t_ = slot_text(w, var, field); CHECK_STR(t_, want); free(t_); } while (0)

/* The parser's go-ahead counts only once the agent has asked for it. */
TEST(ws_runtime_interp_confirm_only_when_asked)
{
    world *w = world_new();
    REQUIRE(w);
    OK(w, "Book_Restaurant(restaurant=\"Zuma\", confirm_booking=True)");
    CHECK_SLOT(w, "book_restaurant", "restaurant", "\"Zuma\"");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    OK(w, "book_restaurant.confirm_booking = True");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    OK(w, "book_restaurant.confirm_booking = \"no\"");    /* saying no is always heard */
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "False");
    ws_slot *s = slot(w, "book_restaurant", "confirm_booking");
    s->asked = 1;
    s->asked_turn = 1;                         /* the agent asked at turn 1 */
    OK(w, "book_restaurant.confirm_booking = True");  /* still turn 1: not an answer */
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    w->st->turn = 3;                           /* two turns later: stale */
    OK(w, "book_restaurant.confirm_booking = True");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    s->asked_turn = 2;                         /* asked the turn before */
    OK(w, "book_restaurant.restaurant = \"Nobu\"; book_restaurant.confirm_booking = True");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");   /* changed, then yes */
    /* Asked the turn before, nothing changed: the user's own words decide,
     * whatever the parser wrote. */
    w->st->turn = 4;
    s->asked_turn = 3;
    static const char *const not_yes[] = { "hmm, is there parking there?", "no", "wait", "not yet",
                                          "ok but make it 8 people", "Sorry, it's closed tonight.",
                                          "what time is it open", "", NULL };
    for (int i = 0; not_yes[i]; i++) {
        w->in.utterance = not_yes[i];
        OK(w, "book_restaurant.confirm_booking = True");
        CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    }
    w->in.utterance = NULL;                    /* no words at all: no consent */
    OK(w, "book_restaurant.confirm_booking = True");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    w->in.utterance = "Yes please, book it!";
    OK(w, "book_restaurant.confirm_booking = True");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "True");
    world_free(w);
}

/* The closed set of agreement forms (consent.h): the user's words alone. */
TEST(ws_consent_agreement_forms)
{
    static const char *const yes[] = { "yes", "Yes.", "y", "ok", "OK thanks", "sure, go ahead",
                                      "yep", "Sounds good!", "that's right", "That\u2019s right",
                                      "please do", "yes please", "go ahead and book it", "Perfect",
                                      "confirm", "correct", "yes \xf0\x9f\x91\x8d", "s\xc3\xad" "",
                                      "absolutely, thank you", "let's do it", "s\xc3\xad, claro",
                                      "ja bitte", "ja, gerne", "d'accord", NULL };
    static const char *const other[] = { "no", "nope", "not now", "hmm", "wait", "yes but at 8",
                                        "is it open?", "ok?", "what about parking", "yes no",
                                        "ok thanks, is there parking", "book it for 8 instead",
                                        "cancel", "I don't know", "", "   ", "maybe",
                                        "yes yes yes yes yes yes yes yes yes yes yes yes yes",
                                        "yes, and add a note: window seat", "oui \xc3\xa7" "a",
                                        "yes \xe4\xbd\x86\xe6\x98\xaf", NULL };
    for (int i = 0; yes[i]; i++)
        if (!ws_consent_agrees(yes[i])) th_fail(__FILE__, __LINE__, "not an agreement: \"%s\"", yes[i]);
    for (int i = 0; other[i]; i++)
        if (ws_consent_agrees(other[i])) th_fail(__FILE__, __LINE__, "taken as agreement: \"%s\"", other[i]);
    CHECK(!ws_consent_agrees(NULL));
    /* the task's own words stand beside a yes to it, and only to it */
    CHECK(ws_consent_agrees_to("Yes cancel it", "Cancel_Booking"));
    CHECK(ws_consent_agrees_to("yes, cancel the booking please", "Cancel_Booking"));
    CHECK(ws_consent_agrees_to("yes, drop it", "Drop_Course"));
    CHECK(!ws_consent_agrees_to("yes cancel it", "Book_Restaurant"));
    CHECK(!ws_consent_agrees_to("yes, drop it", "Book_Restaurant"));
    CHECK(!ws_consent_agrees_to("cancel it", "Cancel_Booking"));          /* no yes */
    CHECK(!ws_consent_agrees_to("no, cancel it", "Cancel_Booking"));
    CHECK(!ws_consent_agrees_to("yes, cancel it?", "Cancel_Booking"));
}

TEST(ws_runtime_interp_parser_refusals)
{
    world *w = world_new();
    REQUIRE(w);
    OK(w, "Book_Restaurant(restaurant=\"Nobu\")");
    REFUSED(w, "foo(1)", "unknown function 'foo'");
    REFUSED(w, "book_restaurant.restaurant = foo()", "unknown function 'foo'");
    REFUSED(w, "say(\"hello\")", "say() is not allowed here");
    REFUSED(w, "propose(Book_Restaurant)", "propose() is not allowed here");
    REFUSED(w, "exitws()", "exitws() is not allowed here");
    REFUSED(w, "check(False, \"no\")", "check() is not allowed here");
    REFUSED(w, "book(restaurant=\"Nobu\")", "book() is not allowed here");
    REFUSED(w, "book_restaurant.restaurant = book()", "book() is not allowed here");
    REFUSED(w, "book_restaurant.big = True", "field book_restaurant.big is internal");
    REFUSED(w, "book_restaurant.booking_id = \"B-1\"", "field book_restaurant.booking_id is an output");
    REFUSED(w, "Book_Restaurant(restaurant=\"Zuma\", big=True)", "field Book_Restaurant.big is internal");
    REFUSED(w, "Book_Restaurant(restaurant=\"Zuma\", nope=1)", "worksheet Book_Restaurant has no field 'nope'");
    REFUSED(w, "Book_Restaurant(\"Zuma\")", "takes field=value arguments");
    REFUSED(w, "x = 5", "cannot assign to a variable");
    REFUSED(w, "book_restaurant = 5", "cannot assign to a variable");
    REFUSED(w, "book_restaurant.restaurant[0] = \"Z\"", "cannot assign to an item");
    REFUSED(w, "nobody.restaurant = \"Zuma\"", "unknown name 'nobody'");
    REFUSED(w, "book_restaurant.nope = 1", "worksheet Book_Restaurant has no field 'nope'");
    REFUSED(w, "book_restaurant.restaurant = nobody.name", "unknown name 'nobody'");
    REFUSED(w, "Restaurant(name=\"Nobu\")", "Restaurant");
    REFUSED(w, "1 + 2", "a statement must assign a field or call");
    REFUSED(w, "book_restaurant.restaurant", "a statement must assign a field or call");
    /* Refused after something was already made or assigned: still no trace. */
    REFUSED(w, "book_restaurant.restaurant = answer(\"which\").result[0]", "cannot index None");
    REFUSED(w, "Book_Restaurant(restaurant=answer(\"which\"), party_size=1/0)", "division by zero");
    REFUSED(w, "book_restaurant.guest = [Guest(name=\"Ann\"), 1 + \"x\"]", "cannot apply '+'");
    CHECK_INT(w->st->n, 1);
    /* An existing record re-parented by a constructor inside a statement
     * that then fails is put back, and pointers to records stay valid. */
    ws_record *r = ws_state_var(w->st, "book_restaurant");
    OK(w, "Guest(name=\"Ann\")");
    ws_record *g = ws_state_var(w->st, "guest");
    REQUIRE(g);
    REFUSED(w, "book_restaurant.restaurant = [Book_Restaurant(guest=guest), 1/0]", "division by zero");
    CHECK(ws_state_var(w->st, "guest") == g);
    CHECK(ws_state_var(w->st, "book_restaurant") == r);
    CHECK_INT(g->parent, -1);
    CHECK_INT(w->st->n, 2);
    OK(w, "Book_Restaurant(guest=guest)");
    CHECK_STR(w->st->recs[2]->var, "book_restaurant_2");
    CHECK_INT(w->st->recs[2]->id, 3);
    CHECK_INT(g->parent, 3);
    /* A finished record is not the parser's to change. */
    ws_state_var(w->st, "book_restaurant")->done = 1;
    REFUSED(w, "book_restaurant.restaurant = \"Zuma\"", "book_restaurant is already done");
    world_free(w);
}

TEST(ws_runtime_interp_parser_accepts)
{
    world *w = world_new();
    REQUIRE(w);
    OK(w, "Book_Restaurant(restaurant=\"Nobu\", party_size=\"four\", seating=\"BAR\")");
    ws_record *r = ws_state_var(w->st, "book_restaurant");
    REQUIRE(r);
    CHECK_INT(r->by_agent, 0);
    CHECK_INT(r->created_turn, 1);
    CHECK_SLOT(w, "book_restaurant", "restaurant", "\"Nobu\"");
    CHECK_SLOT(w, "book_restaurant", "party_size", "4");
    CHECK_SLOT(w, "book_restaurant", "seating", "\"bar\"");

    /* A misfit is not an error: the field stays empty with the reason. */
    OK(w, "book_restaurant.party_size = \"a crowd\"");
    CHECK_SLOT(w, "book_restaurant", "party_size", "unset");
    CHECK_STR(slot(w, "book_restaurant", "party_size")->why, "\"a crowd\" is not a whole number");
    /* ... and said at once, as a refusal with the reason */
    REQUIRE(w->acts.n >= 1);
    CHECK_INT(w->acts.v[w->acts.n - 1].kind, WA_REFUSE);
    CHECK_STR(w->acts.v[w->acts.n - 1].text, "\"a crowd\" is not a whole number");
    ws_acts_release(&w->acts);
    ws_acts_init(&w->acts);
    OK(w, "book_restaurant.party_size = 2 + 3");
    CHECK_SLOT(w, "book_restaurant", "party_size", "5");

    /* confirm() marks a filled field confirmed. */
    OK(w, "confirm(book_restaurant.party_size)");
    CHECK_INT(slot(w, "book_restaurant", "party_size")->confirmed, 1);
    OK(w, "confirm(book_restaurant.manager)");          /* empty: nothing to confirm */
    CHECK_INT(slot(w, "book_restaurant", "manager")->confirmed, 0);

    /* answer() makes a knowledge record. */
    OK(w, "answer(\"cheap sushi near me\")");
    ws_record *k = ws_state_var(w->st, "answer_1");
    REQUIRE(k);
    CHECK_INT(k->kind, WR_KB);
    CHECK_STR(k->question, "cheap sushi near me");
    CHECK_INT(k->target, -1);
    CHECK_INT(k->by_agent, 0);

    /* field = answer(...) makes the result the field's source. */
    OK(w, "book_restaurant.restaurant = answer(\"the best sushi place\")");
    ws_record *k2 = ws_state_var(w->st, "answer_2");
    REQUIRE(k2);
    CHECK_STR(k2->question, "the best sushi place");
    CHECK_INT(k2->target, r->id);
    CHECK_INT(k2->target_field, field_ix(w->spec, "Book_Restaurant", "restaurant"));
    CHECK_SLOT(w, "book_restaurant", "restaurant", "unset");

    /* Nested values: a dict becomes a record nested in the field, and its
     * fields are reached through the parent. */
    OK(w, "book_restaurant.guest = {\"name\": \"Ann\", \"phone\": 5551234}");
    ws_record *g = ws_state_var(w->st, "guest");
    REQUIRE(g);
    CHECK_INT(g->parent, r->id);
    CHECK_INT(g->parent_field, field_ix(w->spec, "Book_Restaurant", "guest"));
    CHECK_SLOT(w, "book_restaurant", "guest", "guest");
    CHECK_SLOT(w, "guest", "phone", "\"5551234\"");
    OK(w, "book_restaurant.guest.name = \"Ann Lee\"");
    CHECK_SLOT(w, "guest", "name", "\"Ann Lee\"");
    OK(w, "guest.phone = None");
    CHECK(!ws_slot_filled(slot(w, "guest", "phone")));

    /* A second task of the same worksheet; reading fields in a value. */
    OK(w, "Book_Restaurant(restaurant=book_restaurant.guest.name + \"'s place\", party_size=len(\"abc\"))");
    CHECK_SLOT(w, "book_restaurant_2", "restaurant", "\"Ann Lee's place\"");
    CHECK_SLOT(w, "book_restaurant_2", "party_size", "3");
    OK(w, "book_restaurant_2.notes = str(book_restaurant_2.party_size) if book_restaurant_2.party_size > 2 else \"few\"");
    CHECK_SLOT(w, "book_restaurant_2", "notes", "\"3\"");
    OK(w, "pass");
    CHECK_INT(w->acts.n, 0);
    world_free(w);
}

TEST(ws_runtime_interp_action_mode)
{
    world *w = world_new();
    REQUIRE(w);
    OK(w, "Book_Restaurant(restaurant=\"Nobu\", party_size=30)");
    OK(w, "Book_Restaurant(restaurant=\"Zuma\")");
    ws_record *r = ws_state_var(w->st, "book_restaurant");
    REQUIRE(r);
    int pf = field_ix(w->spec, "Book_Restaurant", "party_size");
    w->in.mode = WS_MODE_ACTION;
    w->in.self = r->id;
    w->in.self_field = pf;

    OK(w, "say(\"Hello from \" + self.restaurant)");
    REQUIRE(w->acts.n == 1);
    CHECK_INT(w->acts.v[0].kind, WA_SAY);
    CHECK_STR(w->acts.v[0].text, "Hello from Nobu");
    OK(w, "say(self.party_size)");
    REQUIRE(w->acts.n == 2);
    CHECK_STR(w->acts.v[1].text, "30");

    OK(w, "propose(Book_Restaurant, {\"restaurant\": self.restaurant, \"party_size\": 2})");
    REQUIRE(w->acts.n == 3);
    CHECK_INT(w->acts.v[2].kind, WA_PROPOSE);
    CHECK_INT(w->acts.v[2].sheet, sheet_ix(w->spec, "Book_Restaurant"));
    CHECK_VAL(w->acts.v[2].val, NULL, "{\"restaurant\": \"Nobu\", \"party_size\": 2}");
    OK(w, "propose(Book_Restaurant)");
    REQUIRE(w->acts.n == 4);
    CHECK_VAL(w->acts.v[3].val, NULL, "{}");
    gn_err e;
    CHECK_INT(run(w, "propose(Restaurant)", &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "task worksheet");

    /* Internal and output fields of self are the action's to set. */
    OK(w, "self.big = self.party_size > 10");
    CHECK_SLOT(w, "book_restaurant", "big", "True");
    /* ... but not another record's. */
    refused_at(w, "book_restaurant_2.restaurant = \"X\"", "only set fields of self", __LINE__);

    /* check(): a true condition does nothing; a false one empties the
     * running field and keeps the reason. */
    OK(w, "check(self.party_size > 0, \"must be positive\")");
    CHECK_SLOT(w, "book_restaurant", "party_size", "30");
    CHECK_INT(w->acts.n, 4);
    OK(w, "check(self.party_size <= 20, \"we seat at most \" + str(20))");
    CHECK_SLOT(w, "book_restaurant", "party_size", "unset");
    CHECK_STR(slot(w, "book_restaurant", "party_size")->why, "we seat at most 20");
    CHECK_INT(w->acts.n, 4);
    /* Outside a field's actions a failed check is said. */
    w->in.self_field = -1;
    OK(w, "check(False, \"not today\")");
    REQUIRE(w->acts.n == 5);
    CHECK_INT(w->acts.v[4].kind, WA_SAY);
    CHECK_STR(w->acts.v[4].text, "not today");

    /* APIs: keyword arguments by name, positional ones as "$1", "$2". */
    w->stub.ret = ws_str("B-9");
    OK(w, "self.booking_id = book(\"table\", 2, name=self.restaurant, when=None)");
    CHECK_INT(w->stub.calls, 1);
    CHECK_STR(w->stub.last, "book({\"$1\": \"table\", \"$2\": 2, \"name\": \"Nobu\", \"when\": None})");
    CHECK_SLOT(w, "book_restaurant", "booking_id", "\"B-9\"");
    CHECK_INT(w->in.api_calls, 1);
    w->stub.fail = 1;
    CHECK_INT(run(w, "book()", &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "no table free");
    CHECK_INT(e.line, 1);
    CHECK_INT(w->in.api_calls, 2);
    CHECK_STR(w->stub.last, "book({})");
    CHECK_INT(run(w, "cancel_booking(1)", &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "unknown function 'cancel_booking'");

    /* Predicates. */
    ws_node *n = NULL;
    int t = -1;
    REQUIRE(ws_expr_parse("self.restaurant == \"Nobu\" and self.party_size is None", 1, 1, &n, &e) == 0);
    CHECK_INT(ws_eval_pred(&w->in, n, &t, &e), 0);
    CHECK_INT(t, 1);
    ws_node_free(n);
    REQUIRE(ws_expr_parse("self.party_size > 3", 1, 1, &n, &e) == 0);   /* unset: false */
    CHECK_INT(ws_eval_pred(&w->in, n, &t, &e), 0);
    CHECK_INT(t, 0);
    ws_node_free(n);
    REQUIRE(ws_expr_parse("self.nope", 1, 1, &n, &e) == 0);
    CHECK_INT(ws_eval_pred(&w->in, n, &t, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "no field 'nope'");
    ws_node_free(n);

    /* exitws() from a nested record abandons the task it belongs to. */
    OK(w, "self.guest = {\"name\": \"Ann\"}");
    ws_record *g = ws_state_var(w->st, "guest");
    REQUIRE(g);
    w->in.self = g->id;
    OK(w, "exitws()");
    CHECK_INT(r->abandoned, 1);
    CHECK_INT(g->abandoned, 1);
    CHECK_INT(ws_state_var(w->st, "book_restaurant_2")->abandoned, 0);
    w->in.self = -1;
    CHECK_INT(run(w, "exitws()", &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "needs a worksheet");

    /* Records an action makes are the agent's. */
    OK(w, "answer(\"more\")");
    CHECK_INT(ws_state_latest_kb(w->st)->by_agent, 1);
    world_free(w);
}

/* ---- policy ------------------------------------------------------------------ */

static void warn_cb(void *ud, const gn_err *e)
{
    world *w = ud;
    gn_buf_printf(&w->warns, "%s\n", e->msg);
}

/* A new turn: the acts of the last one dropped, SRC (the parser's
 * statements, may be empty) applied in PARSER mode. */
static void parse_turn_at(world *w, const char *src, int line)
{
    w->st->turn++;
    ws_acts_release(&w->acts);
    ws_acts_init(&w->acts);
    w->in.mode = WS_MODE_PARSER;
    w->in.self = w->in.self_field = -1;
    if (*src) ok_at(w, src, line);
}
#define PARSE(w, src) parse_turn_at(w, src, __LINE__)

/* The acts of the turn in their prompt form, one a line. */
static char *acts_text(world *w)
{
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < w->acts.n; i++) {
        if (i) gn_buf_putc(&b, '\n');
        ws_act_print(w->st, &w->acts.v[i], &b);
    }
    if (!b.data) gn_buf_puts(&b, "");
    return gn_buf_detach(&b);
}

/* Run the policy; the acts as text, also appended to LOG. */
static char *policy(world *w, gn_buf *log)
{
    ws_policy_run(&w->in, warn_cb, w);
    char *t = acts_text(w);
    if (log) gn_buf_printf(log, "%s\n", t);
    int q = 0;
    for (int i = 0; i < w->acts.n; i++) q += ws_act_is_question(&w->acts.v[i]);
    if (q > 1) th_fail(__FILE__, __LINE__, "turn %d asks %d questions:\n%s", w->st->turn, q, t);
    return t;
}

#define CHECK_POLICY(w, log, want) do { char *t_ = policy(w, log); CHECK_STR(t_, want); free(t_); } while (0)

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

TEST(ws_runtime_policy_turns)
{
    world *w = world_new();
    REQUIRE(w);
    gn_buf log;
    gn_buf_init(&log);
    w->st->turn = 0;

    PARSE(w, "Book_Restaurant()");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, restaurant, \"name of the restaurant\")");
    ws_record *r = ws_state_var(w->st, "book_restaurant");
    REQUIRE(r);
    CHECK_INT(slot(w, "book_restaurant", "restaurant")->asked, 1);

    /* The user's own question is answered before the agent asks. */
    PARSE(w, "book_restaurant.restaurant = \"Nobu\"\nanswer(\"is Nobu open on sundays\")");
    ws_record *k = ws_state_var(w->st, "answer_1");
    REQUIRE(k);
    k->ran = 1;
    k->result = json_val("[{\"name\": \"Nobu\", \"open_sunday\": true}]");
    CHECK_POLICY(w, &log,
                 "Report(answer(\"is Nobu open on sundays\"), result=[{\"name\": \"Nobu\", \"open_sunday\": True}])\n"
                 "AskField(book_restaurant, party_size, \"number of people\")");

    /* A Confirm=TRUE field is confirmed before its actions run; the
     * confirmation is the only question. */
    PARSE(w, "book_restaurant.party_size = 30");
    CHECK_POLICY(w, &log, "Confirm(book_restaurant, party_size, 30)");
    CHECK_SLOT(w, "book_restaurant", "big", "unset");
    /* Still unconfirmed a turn later: asked again, nothing else. */
    PARSE(w, "");
    CHECK_POLICY(w, &log, "Confirm(book_restaurant, party_size, 30)");

    /* Confirmed: its actions run, and check() refuses the value; the field
     * is asked again with the reason. */
    PARSE(w, "confirm(book_restaurant.party_size)");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, party_size, \"number of people\", problem=\"we seat at most 20\")");
    CHECK_SLOT(w, "book_restaurant", "big", "True");
    CHECK_SLOT(w, "book_restaurant", "party_size", "unset");
    CHECK(slot(w, "book_restaurant", "party_size")->why == NULL);

    PARSE(w, "book_restaurant.party_size = \"twelve\"");
    CHECK_POLICY(w, &log, "Confirm(book_restaurant, party_size, 12)");
    /* The predicate-gated field comes in once its predicate holds. */
    PARSE(w, "confirm(book_restaurant.party_size)");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, manager, \"name of the event manager\")");
    CHECK_INT(slot(w, "book_restaurant", "party_size")->acted, 1);

    /* A field of a type worksheet: a nested record is made and its first
     * field asked. */
    PARSE(w, "book_restaurant.manager = \"Bo\"");
    CHECK_POLICY(w, &log, "AskField(guest, name, \"full name\")");
    ws_record *g = ws_state_var(w->st, "guest");
    REQUIRE(g);
    CHECK_INT(g->parent, r->id);
    CHECK_INT(g->by_agent, 1);
    CHECK_SLOT(w, "book_restaurant", "guest", "guest");

    /* Optional fields are asked once each. */
    PARSE(w, "guest.name = \"Ann\"");
    CHECK_POLICY(w, &log, "AskField(guest, phone, \"phone number\")");
    PARSE(w, "");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, seating, \"where to sit\")");
    /* Then the go-ahead, after every other field. */
    PARSE(w, "");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, confirm_booking, \"go ahead with the booking\")");
    CHECK_INT(w->stub.calls, 0);
    CHECK_INT(r->done, 0);

    /* "No" is not a go-ahead: said, and not asked again this turn. */
    PARSE(w, "book_restaurant.confirm_booking = False");
    CHECK_POLICY(w, &log, "Say(\"Not going ahead. Tell me what to change, or that you want to stop.\")");
    CHECK_SLOT(w, "book_restaurant", "confirm_booking", "unset");
    PARSE(w, "");
    CHECK_POLICY(w, &log, "AskField(book_restaurant, confirm_booking, \"go ahead with the booking\")");

    /* Complete: the API runs once with the record's fields (nested ones as
     * dicts, without the go-ahead), the record is done, the result told. */
    PARSE(w, "book_restaurant.confirm_booking = True");
    CHECK_POLICY(w, &log, "Report(book_restaurant, result={\"booking_id\": \"B-1\"})");
    CHECK_INT(w->stub.calls, 1);
    CHECK_STR(w->stub.last, "book({\"restaurant\": \"Nobu\", \"party_size\": 12, \"manager\": \"Bo\", "
                            "\"guest\": {\"name\": \"Ann\"}, \"big\": True})");
    CHECK_INT(w->in.api_calls, 1);
    CHECK_INT(r->done, 1);
    CHECK_INT(g->done, 1);
    CHECK_VAL(r->api_result, NULL, "{\"booking_id\": \"B-1\"}");

    /* Done is done. */
    PARSE(w, "");
    CHECK_POLICY(w, &log, "");
    CHECK_INT(w->stub.calls, 1);

    /* Over the whole conversation: the Don't Ask field was never asked, the
     * optional ones once, nothing warned. */
    CHECK_INT(count(log.data, ", notes,"), 0);
    CHECK_INT(count(log.data, "AskField(book_restaurant, seating"), 1);
    CHECK_INT(count(log.data, "AskField(guest, phone"), 1);
    CHECK_STR(w->warns.data ? w->warns.data : "", "");
    gn_buf_release(&log);
    world_free(w);
}

/* The consent rule as a property of whole conversations: random turns
 * (parser statements that fill, change, confirm or refuse the booking,
 * questions, nothing) with random user words.  Whatever the parser
 * writes, the API runs only in a turn whose words agree, right after a
 * turn that asked for the go-ahead, with nothing of the booking changed
 * in it; and at most once. */
TEST(ws_consent_policy_property)
{
    static const char *const stmts[] = {
        "", "book_restaurant.confirm_booking = True", "confirm(book_restaurant.confirm_booking)",
        "book_restaurant.confirm_booking = False", "book_restaurant.seating = \"bar\"",
        "book_restaurant.seating = \"indoor\"", "book_restaurant.party_size = 4",
        "confirm(book_restaurant.party_size)", "guest.name = \"Ann\"", "guest.phone = \"555\"",
        "book_restaurant.seating = \"outdoor\"\nbook_restaurant.confirm_booking = True",
        "answer(\"is Nobu open on sundays\")\nbook_restaurant.confirm_booking = True",
    };
    static const char *const words[] = { "yes", "ok thanks", "sure, go ahead", "hmm, is there parking?",
                                        "no", "wait", "make it 8 people", "yes please", "what time?",
                                        "Sounds good!", "" };
    unsigned seed = 2026;
#define RND(n) ((seed = seed * 1103515245u + 12345u) >> 16) % (n)
    long runs_booked = 0, asks_total = 0;
    for (int round = 0; round < 300; round++) {
        world *w = world_new();
        REQUIRE(w);
        gn_err e;
        w->st->turn = 1;
        run(w, "Book_Restaurant(restaurant=\"Nobu\", party_size=4)", &e);
        ws_policy_run(&w->in, warn_cb, w);
        int asked_go = 0;                    /* the turn before asked for the go-ahead */
        for (int turn = 0; turn < 30; turn++) {
            w->st->turn++;
            ws_acts_release(&w->acts);
            ws_acts_init(&w->acts);
            w->in.mode = WS_MODE_PARSER;
            w->in.self = w->in.self_field = -1;
            w->in.utterance = words[RND(sizeof words / sizeof *words)];
            const char *src = stmts[RND(sizeof stmts / sizeof *stmts)];
            int before = w->stub.calls;
            if (*src) run(w, src, &e);          /* refusals are allowed */
            ws_record *r = ws_state_var(w->st, "book_restaurant");
            int changed = r && r->changed_turn == w->st->turn;
            ws_policy_run(&w->in, warn_cb, w);
            if (w->stub.calls > before) {
                if (!asked_go || !ws_consent_agrees(w->in.utterance) || changed)
                    th_fail(__FILE__, __LINE__, "round %d turn %d: booked on \"%s\" after \"%s\" "
                            "(asked %d, changed %d)", round, turn, w->in.utterance, src, asked_go, changed);
                runs_booked++;
            }
            if (w->stub.calls > 1) th_fail(__FILE__, __LINE__, "round %d: booked twice", round);
            asked_go = 0;
            for (int i = 0; i < w->acts.n; i++) {
                const ws_act *a = &w->acts.v[i];
                const ws_record *ar = ws_state_rec(w->st, a->rec);
                if (a->kind == WA_ASK && ar && a->field >= 0 &&
                    w->spec->sheets[ar->sheet].fields[a->field].type.kind == WT_CONFIRM)
                    asked_go = 1, asks_total++;
            }
        }
        world_free(w);
    }
#undef RND
    CHECK(runs_booked > 20 && asks_total > runs_booked);   /* the walk reaches bookings */
}

/* A field's actions that read other fields of self wait for the input
 * fields among them and run again when any of them changes; what they
 * set themselves is not a read. */
static const char VISIT[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,"
    "Confirm,Actions,Form Actions\n"
    ",Visit,,,worksheet,visit,,Visit a shop.,,,,,\n"
    ",,,input,int,hour,,hour of the visit,,TRUE,,\"self.note = \"\"opens at 9\"\" if self.day != \"\"sat\"\" else None\n"
    "check(self.hour >= 9 or self.day == \"\"sat\"\", \"\"closed before 9 on \"\" + self.day + \"\", \"\" + self.note)\",\n"
    ",,,input,str,day,,day of the visit,,TRUE,TRUE,,\n"
    ",,,internal,str,note,,what the hours say,,,,,\n"
    ",,,input,confirm,go,,go ahead,,TRUE,,,\n";

TEST(ws_runtime_policy_actions_rerun_on_reads)
{
    world *w = world_of(VISIT);
    REQUIRE(w);
    const ws_sheet *sh = ws_spec_sheet(w->spec, "Visit");
    REQUIRE(sh);
    CHECK_INT((int)sh->fields[0].reads, 1 << 1);   /* day; not note (set), not hour itself */
    CHECK_INT((int)sh->fields[1].reads, 0);
    gn_buf log;
    gn_buf_init(&log);
    w->st->turn = 0;
    /* hour before day: its check waits (no warning about None + str) */
    PARSE(w, "Visit(hour=8)");
    CHECK_POLICY(w, &log, "AskField(visit, day, \"day of the visit\")");
    CHECK_SLOT(w, "visit", "hour", "8");
    CHECK_STR(w->warns.data ? w->warns.data : "", "");
    /* day given but not confirmed: still waiting */
    PARSE(w, "visit.day = \"mon\"");
    CHECK_POLICY(w, &log, "Confirm(visit, day, \"mon\")");
    CHECK_SLOT(w, "visit", "hour", "8");
    /* confirmed: the check runs and refuses the hour, with the reason */
    PARSE(w, "confirm(visit.day)");
    CHECK_POLICY(w, &log, "AskField(visit, hour, \"hour of the visit\", problem=\"closed before 9 on mon, opens at 9\")");
    CHECK_SLOT(w, "visit", "hour", "unset");
    PARSE(w, "visit.day = \"sat\"\nvisit.hour = 8");
    CHECK_POLICY(w, &log, "Confirm(visit, day, \"sat\")");
    PARSE(w, "confirm(visit.day)");
    CHECK_POLICY(w, &log, "AskField(visit, go, \"go ahead\")");
    CHECK_SLOT(w, "visit", "hour", "8");
    CHECK_SLOT(w, "visit", "note", "None");
    /* another day: the hour is checked again and refused */
    PARSE(w, "visit.day = \"sun\"");
    free(policy(w, &log));
    PARSE(w, "confirm(visit.day)");
    CHECK_POLICY(w, &log, "AskField(visit, hour, \"hour of the visit\", problem=\"closed before 9 on sun, opens at 9\")");
    /* the run's mark survives the saved state */
    PARSE(w, "visit.hour = 10");
    CHECK_POLICY(w, &log, "AskField(visit, go, \"go ahead\")");
    CHECK_SLOT(w, "visit", "hour", "10");
    CHECK_STR(w->warns.data ? w->warns.data : "", "");
    char *saved = json_text(w->st);
    CHECK(strstr(saved, "\"acted_sig\"") != NULL);
    free(saved);
    gn_buf_release(&log);
    world_free(w);
}

TEST(ws_runtime_policy_api_failure_retried)
{
    world *w = world_new();
    REQUIRE(w);
    w->st->turn = 0;
    PARSE(w, "Book_Restaurant(restaurant=\"Nobu\", party_size=2, guest={\"name\": \"Ann\", \"phone\": \"555\"}, "
             "seating=\"indoor\")\n"
             "confirm(book_restaurant.party_size)");
    ws_record *r = ws_state_var(w->st, "book_restaurant");
    REQUIRE(r);
    CHECK(!ws_record_complete(&w->in, r));
    CHECK_POLICY(w, NULL, "AskField(book_restaurant, confirm_booking, \"go ahead with the booking\")");
    CHECK_SLOT(w, "book_restaurant", "big", "False");
    PARSE(w, "book_restaurant.confirm_booking = \"yes\"");
    CHECK(ws_record_complete(&w->in, r));
    w->stub.fail = 1;
    CHECK_POLICY(w, NULL, "Say(\"I could not complete that (Book_Restaurant): no table free\")");
    CHECK_INT(w->stub.calls, 1);
    CHECK_INT(r->done, 0);
    CHECK(r->api_result == NULL);
    CHECK_CONTAINS(w->warns.data, "no table free");
    CHECK_INT(ws_state_var(w->st, "guest")->done, 0);

    /* The next turn tries again. */
    PARSE(w, "");
    CHECK_POLICY(w, NULL, "Report(book_restaurant, result={\"booking_id\": \"B-1\"})");
    CHECK_INT(w->stub.calls, 2);
    CHECK_INT(r->done, 1);
    CHECK_INT(ws_state_var(w->st, "guest")->done, 1);
    world_free(w);
}

TEST(ws_runtime_policy_kb_records)
{
    world *w = world_new();
    REQUIRE(w);
    w->st->turn = 0;
    /* A search that needs a parameter asks for it, and nothing else. */
    PARSE(w, "Book_Restaurant()\nanswer(\"restaurants near me\")");
    ws_record *k = ws_state_var(w->st, "answer_1");
    REQUIRE(k);
    k->ran = 1;
    k->missing = strdup("location");
    CHECK_POLICY(w, NULL, "AskField(answer_1, location, \"needed before searching\")");
    CHECK_INT(slot(w, "book_restaurant", "restaurant")->asked, 0);

    /* An error is reported, then the agent's question. */
    PARSE(w, "answer(\"restaurants in Paris\")");
    k = ws_state_var(w->st, "answer_2");
    REQUIRE(k);
    k->ran = 1;
    k->error = strdup("no such table: cafes");
    CHECK_POLICY(w, NULL, "Report(answer(\"restaurants in Paris\"), error=\"no such table: cafes\")\n"
                          "AskField(book_restaurant, restaurant, \"name of the restaurant\")");

    /* A result is reported whether it filled its field or not (several
     * rows). */
    PARSE(w, "book_restaurant.restaurant = answer(\"the best sushi place\")");
    k = ws_state_var(w->st, "answer_3");
    REQUIRE(k);
    k->ran = 1;
    k->result = json_val("[{\"name\": \"Nobu\"}]");
    ws_val *nobu = ws_str("Nobu");
    char why[64];
    CHECK_INT(ws_state_set(w->st, ws_state_var(w->st, "book_restaurant"), 0, nobu, why, sizeof why), 0);
    ws_val_free(nobu);
    CHECK_POLICY(w, NULL, "Report(answer(\"the best sushi place\"), result=[{\"name\": \"Nobu\"}])\n"
                          "AskField(book_restaurant, party_size, \"number of people\")");
    PARSE(w, "book_restaurant.manager = answer(\"who manages Nobu\")");
    k = ws_state_var(w->st, "answer_4");
    REQUIRE(k);
    k->ran = 1;
    k->result = json_val("[{\"name\": \"Bo\"}, {\"name\": \"Cy\"}]");
    CHECK_POLICY(w, NULL, "Report(answer(\"who manages Nobu\"), result=[{\"name\": \"Bo\"}, {\"name\": \"Cy\"}])\n"
                          "AskField(book_restaurant, party_size, \"number of people\")");
    /* Reports are for the turn's own records only. */
    PARSE(w, "");
    CHECK_POLICY(w, NULL, "AskField(book_restaurant, party_size, \"number of people\")");
    world_free(w);
}

/* ---- acts -------------------------------------------------------------------- */

static char *act_print(const ws_state *st, const ws_act *a)
{
    gn_buf b;
    gn_buf_init(&b);
    ws_act_print(st, a, &b);
    return gn_buf_detach(&b);
}

static char *act_render(const ws_state *st, const ws_act *a)
{
    gn_buf b;
    gn_buf_init(&b);
    ws_act_render(st, a, &b);
    if (!b.data) gn_buf_puts(&b, "");
    return gn_buf_detach(&b);
}

#define CHECK_ACT(st, a, printed, rendered) do { \
    char *p_ = act_print(st, a), *r_ = act_render(st, a); \
    CHECK_STR(p_, printed); CHECK_STR(r_, rendered); free(p_); free(r_); } while (0)

TEST(ws_runtime_acts_forms)
{
    ws_spec *sp = spec_new();
    REQUIRE(sp);
    ws_state *st = sample_state(sp);
    ws_record *r = ws_state_var(st, "book_restaurant"), *k = ws_state_var(st, "answer_2");
    ws_record *d = ws_state_var(st, "book_restaurant_2");
    REQUIRE(r && k && d);
    int sf = field_ix(sp, "Book_Restaurant", "seating"), pf = field_ix(sp, "Book_Restaurant", "party_size");
    int rf = field_ix(sp, "Book_Restaurant", "restaurant"), cf = field_ix(sp, "Book_Restaurant", "confirm_booking");
    ws_acts a;
    ws_acts_init(&a);

    CHECK_STR(ws_act_name(WA_REPORT), "Report");
    CHECK_STR(ws_act_name(WA_ASK), "AskField");
    CHECK_STR(ws_act_name(WA_CONFIRM), "Confirm");
    CHECK_STR(ws_act_name(WA_SAY), "Say");
    CHECK_STR(ws_act_name(WA_PROPOSE), "Propose");

    /* AskField: the description; enum options in the template. */
    ws_act *x = ws_acts_add(&a, WA_ASK, r->id, sf, NULL, NULL);
    CHECK(ws_act_is_question(x));
    CHECK_INT(x->sheet, -1);
    CHECK_ACT(st, x, "AskField(book_restaurant, seating, \"where to sit\")",
              "What is the where to sit? (indoor, outdoor or bar)\n");
    x = ws_acts_add(&a, WA_ASK, r->id, pf, "we seat at most 20", NULL);
    CHECK_STR(x->text, "we seat at most 20");
    CHECK_ACT(st, x, "AskField(book_restaurant, party_size, \"number of people\", problem=\"we seat at most 20\")",
              "That did not fit: we seat at most 20. What is the number of people?\n");
    /* The go-ahead: genie's own request (consent.h), a line a field,
     * nested records inline. */
    x = ws_acts_add(&a, WA_ASK, r->id, cf, NULL, NULL);
    CHECK_ACT(st, x, "AskField(book_restaurant, confirm_booking, \"go ahead with the booking\")",
              "Please confirm. I will book a table at a restaurant with:\n  - name of the restaurant: Nobu \"Downtown\"\n"
              "  - number of people: 4\n  - who the table is for: (full name: Ann)\n"
              "  - where to sit: bar\nReply \"yes\" to go ahead, or tell me what to change.\n");
    /* A knowledge record's missing parameter. */
    x = ws_acts_add(&a, WA_ASK, k->id, -1, "location", NULL);
    CHECK_ACT(st, x, "AskField(answer_2, location, \"needed before searching\")",
              "To search for that I need to know the location. Which location?\n");

    x = ws_acts_add(&a, WA_CONFIRM, r->id, pf, NULL, NULL);
    CHECK(ws_act_is_question(x));
    CHECK_ACT(st, x, "Confirm(book_restaurant, party_size, 4)",
              "Just to confirm: the number of people is 4. Is that right?\n");
    x = ws_acts_add(&a, WA_CONFIRM, r->id, rf, NULL, NULL);
    CHECK_ACT(st, x, "Confirm(book_restaurant, restaurant, \"Nobu \\\"Downtown\\\"\")",
              "Just to confirm: the name of the restaurant is Nobu \"Downtown\". Is that right?\n");

    x = ws_acts_add(&a, WA_SAY, -1, -1, "Booked \"it\".", NULL);
    CHECK(!ws_act_is_question(x));
    CHECK_ACT(st, x, "Say(\"Booked \\\"it\\\".\")", "Booked \"it\".\n");

    x = ws_acts_add(&a, WA_PROPOSE, -1, -1, NULL, json_val("{\"restaurant\": \"Zuma\", \"party_size\": 2}"));
    x->sheet = sheet_ix(sp, "Book_Restaurant");
    CHECK(!ws_act_is_question(x));
    CHECK_ACT(st, x, "Propose(Book_Restaurant, {\"restaurant\": \"Zuma\", \"party_size\": 2})",
              "Would you like to book a table at a restaurant with restaurant Zuma, party_size 2?\n");
    x = ws_acts_add(&a, WA_PROPOSE, -1, -1, NULL, ws_dict());
    x->sheet = sheet_ix(sp, "Book_Restaurant");
    CHECK_ACT(st, x, "Propose(Book_Restaurant, {})", "Would you like to book a table at a restaurant?\n");

    /* Reports: rows (a name first, short columns), an empty result, an
     * error, a task's API result. */
    x = ws_acts_add(&a, WA_REPORT, k->id, -1, NULL, NULL);
    CHECK(!ws_act_is_question(x));
    char *p = act_print(st, x), *t = act_render(st, x);
    CHECK_CONTAINS(p, "Report(answer(\"cheap \\\"sushi\\\"\"), result=[{\"name\": \"A\", \"review\": \"xxxx");
    CHECK_CONTAINS(p, "{\"name\": \"B\", \"rating\": 4.5}, {\"name\": \"C\"}])");
    CHECK_STR(t, "I searched for \"cheap \"sushi\"\" and found 3 results:\n\n"
                 "| name | rating |\n|---|---|\n| A |  |\n| B | 4.5 |\n| C |  |\n");
    free(p);
    free(t);
    ws_record *e0 = ws_state_new_kb(st, "vegan ramen");
    e0->ran = 1;
    e0->result = ws_list();
    x = ws_acts_add(&a, WA_REPORT, e0->id, -1, NULL, NULL);
    CHECK_ACT(st, x, "Report(answer(\"vegan ramen\"), result=[])",
              "I searched for \"vegan ramen\" and found nothing that matches.\n");
    ws_record *e1 = ws_state_new_kb(st, "cafes");
    e1->ran = 1;
    e1->error = strdup("no such table: cafes");
    x = ws_acts_add(&a, WA_REPORT, e1->id, -1, NULL, NULL);
    CHECK_ACT(st, x, "Report(answer(\"cafes\"), error=\"no such table: cafes\")",
              "I tried to look up \"cafes\", but the search failed: no such table: cafes\n");
    ws_record *e2 = ws_state_new_kb(st, "many");
    e2->ran = 1;
    e2->result = ws_list();
    for (int i = 0; i < 12; i++) {
        ws_val *row = ws_dict();
        ws_dict_set(row, "title", ws_str_own(strdup(i % 2 ? "Odd" : "Even")));
        ws_dict_set(row, "n", ws_int(i));
        ws_dict_set(row, "price", ws_str("cheap"));
        ws_dict_set(row, "tags", json_val("[\"x\"]"));
        ws_list_add(e2->result, row);
    }
    x = ws_acts_add(&a, WA_REPORT, e2->id, -1, NULL, NULL);
    p = act_print(st, x);
    t = act_render(st, x);
    CHECK_CONTAINS(p, "{\"title\": \"Odd\", \"n\": 9, \"price\": \"cheap\", \"tags\": [\"x\"]}] + 2 more rows)");
    CHECK(!strstr(p, "\"n\": 10"));
    /* Several rows with columns: a table of ten, the lists left out. */
    CHECK_STR(t, "I searched for \"many\" and found 12 results:\n\n"
                 "| title | n | price |\n|---|---|---|\n"
                 "| Even | 0 | cheap |\n| Odd | 1 | cheap |\n| Even | 2 | cheap |\n| Odd | 3 | cheap |\n"
                 "| Even | 4 | cheap |\n| Odd | 5 | cheap |\n| Even | 6 | cheap |\n| Odd | 7 | cheap |\n"
                 "| Even | 8 | cheap |\n| Odd | 9 | cheap |\n\n(2 more not shown)\n");
    free(p);
    free(t);
    x = ws_acts_add(&a, WA_REPORT, d->id, -1, NULL, ws_val_copy(d->api_result));
    CHECK_ACT(st, x, "Report(book_restaurant_2, result={\"booking_id\": \"B-7\"})",
              "Done: Book_Restaurant \xE2\x80\x94 {\"booking_id\": \"B-7\"}.\n");
    x = ws_acts_add(&a, WA_REPORT, d->id, -1, NULL, NULL);
    CHECK_ACT(st, x, "Report(book_restaurant_2, result=[])", "Done: Book_Restaurant.\n");

    ws_acts_release(&a);
    CHECK_INT(a.n, 0);
    ws_state_free(st);
    ws_spec_free(sp);
}
