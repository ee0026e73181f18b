/*
 * ast.h — the typed syntax tree of one SUQL query.
 *
 * SUQL is a PostgreSQL SELECT plus two free-text functions,
 * answer(text_or_text_array, 'question') and summary(text).  suql_parse
 * (parse.h) builds this tree; the analyzer resolves its names against the
 * schema, the optimizer normalizes WHERE to DNF, and the emitter compiles it
 * to SQLite SQL plus retrieval and LLM steps.  Those later passes may add
 * or rewrite nodes with the constructors below.
 *
 * Ownership: a suql_query owns an arena holding every node and string of
 * the query, its copy of the query text, and the root statement.
 * suql_query_free releases all of it; nothing in the tree is freed alone.
 *
 * Positions: every node records `pos`, the byte offset in q->text where it
 * starts (the operator for binary expressions, as PostgreSQL reports it);
 * suql_linecol (parse.h) turns it into a line and column for messages.
 *
 * Names are as PostgreSQL reads them: unquoted identifiers folded to lower
 * case, quoted ones verbatim.  Expression fields are shared between kinds;
 * the comment on each kind says which fields it uses, the others are zero.
 */
#ifndef GENIE_SUQL_AST_H
#define GENIE_SUQL_AST_H

#include "suql/arena.h"
#include "util/buf.h"

/* Expression kinds (SUQL_E_*: result.h owns SUQL_NULL, SUQL_INT, ...). */
typedef enum suql_kind {
    SUQL_E_COLUMN,     /* [qual.]name */
    SUQL_E_STAR,       /* * or qual.* (select lists) */
    SUQL_E_STRING,     /* text: the value, quotes removed */
    SUQL_E_INT,        /* text: canonical decimal; ival: the value */
    SUQL_E_FLOAT,      /* text: as written ("4.0", "1e10", "-0.5"); fval */
    SUQL_E_BOOL,       /* ival: 0 or 1 */
    SUQL_E_NULL,
    SUQL_E_FUNC,       /* name(args); distinct: f(DISTINCT ...); star: f(*) */
    SUQL_E_ANSWER,     /* answer(args[0] text or text[], args[1] question) */
    SUQL_E_SUMMARY,    /* summary(args[0]) */
    SUQL_E_NEG,        /* -l */
    SUQL_E_NOT,        /* NOT l */
    SUQL_E_ARITH,      /* l op r; op: ADD SUB MUL DIV MOD CONCAT */
    SUQL_E_CMP,        /* l op r; op: EQ NE LT LE GT GE */
    SUQL_E_ARRAYOP,    /* l op r; op: CONTAINS CONTAINED OVERLAP */
    SUQL_E_AND,        /* args[0] AND args[1] AND ...: nargs >= 2, no AND child */
    SUQL_E_OR,         /* args[0] OR ...: nargs >= 2, no OR child */
    SUQL_E_IN,         /* l [NOT] IN (args); negated */
    SUQL_E_IN_SELECT,  /* l [NOT] IN (sub); negated */
    SUQL_E_BETWEEN,    /* l [NOT] BETWEEN args[0] AND args[1]; negated */
    SUQL_E_LIKE,       /* l op r; op: LIKE NOT_LIKE ILIKE NOT_ILIKE */
    SUQL_E_ISNULL,     /* l IS [NOT] NULL; negated */
    SUQL_E_ANY,        /* l op ANY (r) with r an array, or ANY (sub) when
                          sub is set; op: a comparison or a LIKE operator */
    SUQL_E_ALL,        /* l op ALL (r) or ALL (sub); as SUQL_E_ANY */
    SUQL_E_ARRAY,      /* ARRAY[args] (nargs may be 0) */
    SUQL_E_CAST,       /* l::type, or l::type[] when array */
    SUQL_E_CASE,       /* CASE [l] WHEN args[2i] THEN args[2i+1] ... [ELSE r] END;
                          l NULL for the searched form; r NULL without ELSE */
    SUQL_E_SUBQUERY,   /* (sub): a scalar subquery; ARRAY(sub) when array */
    SUQL_E_EXISTS,     /* EXISTS (sub); NOT EXISTS is SUQL_E_NOT over it */
    SUQL_E_COALESCE,   /* COALESCE(args) */
    SUQL_E_ISBOOL,     /* l IS [NOT] TRUE / FALSE / UNKNOWN; ival: 1 TRUE,
                          0 FALSE, -1 UNKNOWN; negated */
    SUQL_E_SUBSCRIPT,  /* l[args[0]], or the slice l[args[0]:args[1]] when
                          slice is set (either bound may be NULL) */
    SUQL_E__COUNT
} suql_kind;

/* Operators of ARITH, CMP, ARRAYOP, LIKE, ANY and ALL. */
typedef enum suql_op {
    SUQL_OP_NONE,
    SUQL_OP_EQ, SUQL_OP_NE, SUQL_OP_LT, SUQL_OP_LE, SUQL_OP_GT, SUQL_OP_GE,
    SUQL_OP_ADD, SUQL_OP_SUB, SUQL_OP_MUL, SUQL_OP_DIV, SUQL_OP_MOD,
    SUQL_OP_CONCAT,                                  /* || */
    SUQL_OP_CONTAINS, SUQL_OP_CONTAINED, SUQL_OP_OVERLAP,  /* @> <@ && */
    SUQL_OP_LIKE, SUQL_OP_NOT_LIKE, SUQL_OP_ILIKE, SUQL_OP_NOT_ILIKE,
    SUQL_OP_POW,                                     /* ^ (ARITH) */
    SUQL_OP_DISTINCT, SUQL_OP_NOT_DISTINCT,          /* IS [NOT] DISTINCT FROM (CMP) */
    SUQL_OP__COUNT
} suql_op;

/* Target types of casts.  Several spellings map to one member:
 * INT int, integer, int2/4/8, smallint, bigint; REAL float, real,
 * double precision, float4/8; NUMERIC numeric, decimal; TEXT text, varchar,
 * char; BOOL boolean, bool; DATE; TIME; TIMESTAMP (and timestamptz);
 * INTERVAL. */
typedef enum suql_cast_type {
    SUQL_T_INT, SUQL_T_REAL, SUQL_T_NUMERIC, SUQL_T_TEXT, SUQL_T_BOOL,
    SUQL_T_DATE, SUQL_T_TIME, SUQL_T_TIMESTAMP, SUQL_T_INTERVAL,
    SUQL_T__COUNT
} suql_cast_type;

typedef struct suql_expr suql_expr;
typedef struct suql_select suql_select;
typedef struct suql_from suql_from;
typedef struct suql_cte suql_cte;
typedef struct suql_order suql_order;
typedef struct suql_window suql_window;

/* ---- resolution annotations (filled by suql_analyze, analyze.h) ----
 * The parser leaves them zero; suql_analyze sets them on every node it
 * resolves, and running it again overwrites them.  Passes that build new
 * nodes may leave them zero: the emitter then prints names as written. */
struct st_table;
struct st_column;

/* What a SUQL_E_COLUMN names. */
typedef enum suql_rkind {
    SUQL_R_NONE,       /* not resolved (no analysis yet, or a new node) */
    SUQL_R_BASE,       /* a column of a knowledge-base table: rtab, rcol */
    SUQL_R_UNNEST,     /* the element of FROM unnest(arr) AS x: one value of
                          the array; rcol/rtab: arr's column when arr is one */
    SUQL_R_DERIVED,    /* a column of a subquery or CTE in FROM: rindex;
                          rtab/rcol when it carries a base column unchanged */
    SUQL_R_ALIAS       /* a select-list output name used in ORDER BY or
                          GROUP BY: rindex is the target's index */
} suql_rkind;

/* A value's type as the analyzer infers it (SQLite is dynamically typed:
 * UNKNOWN is common and never an error).  enum columns are TEXT. */
typedef enum suql_vtype {
    SUQL_VT_UNKNOWN, SUQL_VT_TEXT, SUQL_VT_INT, SUQL_VT_REAL, SUQL_VT_BOOL,
    SUQL_VT_DATE, SUQL_VT_TIME, SUQL_VT_TIMESTAMP,
    SUQL_VT_NUMERIC,    /* decimal literals, ::numeric, avg() of integers:
                           a double rounded to 15 digits (pgval.h) */
    SUQL_VT_INTERVAL    /* PostgreSQL's interval text ('1 day 02:00:00') */
} suql_vtype;

/* One column a FROM item provides, in order (base table: the schema's
 * columns; subquery or CTE: its output columns; unnest: the element). */
typedef struct suql_rcolumn {
    const char *name;               /* as references spell it */
    const struct st_table *tab;     /* the base column it carries unchanged, */
    const struct st_column *col;    /*   or both NULL (a computed value) */
    suql_vtype vtype;
    int varray;                     /* a JSON array */
    const struct st_column *venum;  /* an enum value: the enum column whose
                                       declared order it sorts in, or NULL */
} suql_rcolumn;

struct suql_expr {
    suql_kind kind;
    int pos;                 /* byte offset in the query text */
    suql_op op;              /* ARITH CMP ARRAYOP LIKE ANY ALL */
    const char *name;        /* COLUMN: the column; FUNC: the function */
    const char *qual;        /* COLUMN, STAR: table or alias, or NULL */
    const char *text;        /* STRING, INT, FLOAT (see the kinds) */
    long long ival;          /* INT, BOOL */
    double fval;             /* FLOAT */
    suql_cast_type type;     /* CAST */
    int negated;             /* IN IN_SELECT BETWEEN ISNULL: the NOT form */
    int distinct;            /* FUNC: f(DISTINCT x) */
    int star;                /* FUNC: f(*), nargs 0 */
    int array;               /* CAST: to an array of type; SUBQUERY: ARRAY(sub) */
    int tmod[2], ntmod;      /* CAST: type modifiers, numeric(p,s), varchar(n) */
    int symmetric;           /* BETWEEN SYMMETRIC */
    int slice;               /* SUBSCRIPT: a slice [a:b] */
    int sqlvalue;            /* FUNC: written without parentheses
                                (CURRENT_DATE, CURRENT_TIMESTAMP, ...) */
    suql_expr *l, *r;        /* operands (see the kinds) */
    suql_expr **args;        /* arguments, list items, CASE arms */
    int nargs;
    suql_select *sub;        /* IN_SELECT ANY ALL SUBQUERY EXISTS */
    /* FUNC only: f(args ORDER BY aorder) FILTER (WHERE filter) OVER over;
     * each NULL/0 when absent.  A FUNC with over is a window function call
     * (an aggregate with OVER is one too, not an aggregate of its SELECT). */
    suql_order *aorder;
    int naorder;
    suql_expr *filter;
    suql_window *over;

    /* Resolution (suql_analyze).  COLUMN: */
    suql_rkind rkind;
    const struct st_table *rtab;    /* BASE; UNNEST, DERIVED when traced */
    const struct st_column *rcol;   /* likewise */
    const suql_from *rfrom;         /* BASE UNNEST DERIVED: the FROM item
                                       (TABLE, SUBQUERY or FUNC) it is in */
    const suql_from *rjoin;         /* a column merged by JOIN USING or
                                       NATURAL (unqualified): that JOIN */
    int rindex;                     /* DERIVED: index in rfrom->rcols;
                                       ALIAS: index in the select's targets */
    const suql_expr *rtarget;       /* ALIAS: that target's expression */
    int rdepth;                     /* SELECT levels outward: 0 here, 1 the
                                       enclosing query (correlated), ... */
    /* Every expression: its inferred type. */
    suql_vtype vtype;
    int varray;                     /* a JSON array (array column, ARRAY[...]) */
    const struct st_column *venum;  /* a value of an enum (a column, an element
                                       of an enum array, or what NULLIF,
                                       COALESCE, CASE, greatest, least, min,
                                       max, a window's value function or a
                                       subquery carries from one): the enum
                                       column whose declared order it has */
};

/* One item of the select list: expr [AS alias]. */
typedef struct suql_target {
    suql_expr *expr;
    const char *alias;       /* NULL when none */
} suql_target;

typedef enum suql_nulls { SUQL_NULLS_DEFAULT, SUQL_NULLS_FIRST, SUQL_NULLS_LAST } suql_nulls;

/* One ORDER BY key.  NULLS_DEFAULT means PostgreSQL's: last when
 * ascending, first when descending. */
struct suql_order {
    suql_expr *expr;
    int desc;
    suql_nulls nulls;
};

/* A window: OVER (PARTITION BY ... ORDER BY ...), OVER name, or
 * OVER (name ORDER BY ...); also an item of the WINDOW clause (name set).
 * Only the default frame exists (frame clauses are refused). */
struct suql_window {
    int pos;                 /* OVER's window, or the WINDOW item's name */
    const char *name;        /* WINDOW name AS (...); OVER name (no parentheses) */
    const char *refname;     /* OVER (refname ...) or WINDOW w AS (refname ...) */
    suql_expr **partition;
    int npartition;
    suql_order *order;
    int norder;
};

/* Set operations: a SELECT whose op is not NONE combines larg and rarg. */
typedef enum suql_setop {
    SUQL_SET_NONE, SUQL_SET_UNION, SUQL_SET_INTERSECT, SUQL_SET_EXCEPT
} suql_setop;

/* WITH name [(cols)] AS (select). */
struct suql_cte {
    const char *name;
    const char **cols;       /* column aliases; ncols may be 0 */
    int ncols;
    suql_select *select;
    int pos;
    long weight;             /* analysis: SELECT blocks one read copies */
};

typedef enum suql_from_kind {
    SUQL_FROM_TABLE,         /* table [AS alias] */
    SUQL_FROM_SUBQUERY,      /* (sub) [AS alias [(cols)]] */
    SUQL_FROM_FUNC,          /* func [AS alias [(cols)]], e.g. unnest(reviews) AS r */
    SUQL_FROM_JOIN           /* left JOIN right [ON on | USING (using)] */
} suql_from_kind;

typedef enum suql_join_kind {
    SUQL_JOIN_INNER, SUQL_JOIN_LEFT, SUQL_JOIN_RIGHT, SUQL_JOIN_FULL,
    SUQL_JOIN_CROSS          /* no ON and no USING */
} suql_join_kind;

struct suql_from {
    suql_from_kind kind;
    int pos;                 /* table name, function, first token inside */
    const char *table;       /* TABLE */
    const char *alias;       /* TABLE SUBQUERY FUNC: the alias, or NULL */
    const char **cols;       /* SUBQUERY FUNC: column aliases */
    int ncols;
    suql_select *sub;        /* SUBQUERY */
    suql_expr *func;         /* FUNC: a SUQL_E_FUNC call */
    suql_join_kind join;     /* JOIN */
    int natural;             /* JOIN: NATURAL (then no ON or USING) */
    suql_from *left, *right; /* JOIN */
    suql_expr *on;           /* JOIN: the ON condition, or NULL */
    const char **using;      /* JOIN: USING columns */
    int nusing;

    /* Resolution (suql_analyze). */
    const struct st_table *rtab;    /* TABLE: the knowledge-base table, or
                                       NULL when it names a CTE */
    const suql_cte *rcte;           /* TABLE: the CTE it names, or NULL */
    const char *rname;              /* TABLE SUBQUERY FUNC: the name that
                                       qualifies its columns (the alias, else
                                       the table or CTE name, else "unnest") */
    suql_rcolumn *rcols;            /* TABLE SUBQUERY FUNC: its columns */
    int nrcols;
    const char **rusing;            /* JOIN: the merged columns (USING, or
                                       NATURAL's common ones) */
    int nrusing;
};

/* A SELECT block, or a set operation (op not NONE): larg op [ALL] rarg,
 * with ctes, order, limit and offset applying to the whole and every other
 * clause empty (ntargets 0); its output columns are larg's. */
struct suql_select {
    int pos;                 /* the SELECT (or WITH) keyword; a set
                                operation: its UNION/INTERSECT/EXCEPT */
    suql_cte *ctes;          /* WITH, in order */
    int nctes;
    suql_setop op;           /* SUQL_SET_NONE for a SELECT block */
    int all;                 /* UNION ALL, INTERSECT ALL, EXCEPT ALL */
    suql_select *larg, *rarg;
    int distinct;            /* SELECT DISTINCT (not with DISTINCT ON) */
    suql_expr **distinct_on; /* SELECT DISTINCT ON (exprs) */
    int ndistinct_on;
    suql_target *targets;    /* ntargets >= 1 (0: a set operation) */
    int ntargets;
    suql_from **from;        /* comma-separated items; nfrom may be 0 */
    int nfrom;
    suql_expr *where;        /* NULL when absent, likewise below */
    suql_expr **group;
    int ngroup;
    suql_expr *having;
    suql_window *windows;    /* WINDOW name AS (...), ...: each has a name */
    int nwindows;
    suql_order *order;
    int norder;
    suql_expr *limit, *offset;

    /* Resolution (suql_analyze): the output columns, in order. */
    suql_rcolumn *rcols;
    int nrcols;
};

typedef struct suql_query {
    suql_arena *arena;       /* owns every node and string below */
    const char *text;        /* the query text as given (arena copy) */
    suql_select *select;     /* the statement */
} suql_query;

/* An empty query owning a copy of TEXT (may be NULL: ""); select is NULL.
 * Free with suql_query_free. */
suql_query *suql_query_new(const char *text);

/* Frees the query and every node in it; NULL is a no-op. */
void suql_query_free(suql_query *q);

/* Constructors: zeroed nodes owned by Q's arena (never NULL). */
suql_expr *suql_expr_new(suql_query *q, suql_kind kind, int pos);
suql_select *suql_select_new(suql_query *q, int pos);
suql_from *suql_from_new(suql_query *q, suql_from_kind kind, int pos);
/* A copy of S in Q's arena (NULL for NULL). */
const char *suql_strdup(suql_query *q, const char *s);
/* An array of N zeroed pointers (or structs: size bytes each) in Q's arena. */
void *suql_array_new(suql_query *q, int n, size_t size);

/* Whether lower-case WORD is a PostgreSQL keyword that cannot stand bare
 * as a column, table or function name (it must be quoted). */
int suql_is_keyword(const char *word);

/* Normalized SUQL text of the whole query (appended to OUT): keywords in
 * upper case, single spaces, identifiers quoted only when needed, strings
 * single-quoted with '' doubling, parentheses only where precedence needs
 * them, no trailing semicolon.  suql_parse of the output gives a tree that
 * prints the same. */
void suql_print(const suql_query *q, gn_buf *out);
/* The same for one statement or one expression (for --explain). */
void suql_print_select(const suql_select *s, gn_buf *out);
void suql_print_expr(const suql_expr *e, gn_buf *out);

/* A walk over a statement's parts for the passes that only read a tree
 * (which columns a query mentions, which free-text questions it asks):
 * EXPR is called on every expression node, FROM (may be NULL) on every
 * FROM item, of the set operation's arms, the CTEs, the FROM items (with
 * their subqueries, functions and ON conditions), WHERE and HAVING, and
 * with TARGETS the select lists too, descending into subqueries.  A
 * nonzero return of a callback stops the walk and is returned. */
typedef struct suql_visit {
    int (*expr)(const suql_expr *x, void *ud);
    int (*from)(const suql_from *f, void *ud);
    int targets;
    void *ud;
} suql_visit;
int suql_visit_select(const suql_select *s, const suql_visit *v);
int suql_visit_expr(const suql_expr *x, const suql_visit *v);

/* Static names: the operator as printed ("<>", "NOT ILIKE", "@>"), the cast
 * type as printed ("INTEGER", "REAL", "BOOLEAN"), the kind for debugging
 * ("COLUMN", "ANSWER"); "?" when out of range. */
const char *suql_op_text(suql_op op);
const char *suql_cast_type_name(suql_cast_type t);
const char *suql_kind_name(suql_kind k);

#endif
