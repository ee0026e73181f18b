/*
 * suql_fixture.c — the shared SUQL test schema (see suql_fixture.h).
 */
#include "suql_fixture.h"

const char th_suql_schema_sql[] =
    "CREATE TABLE restaurants(_id INTEGER PRIMARY KEY, name TEXT, cuisines TEXT, price TEXT,"
    "  rating REAL, num_reviews INTEGER, location TEXT, reviews TEXT, opens TEXT, secret TEXT);"
    "CREATE TABLE dishes(_id INTEGER PRIMARY KEY, restaurant_id INTEGER, name TEXT, price REAL,"
    "  tags TEXT);"
    "CREATE TABLE genie_meta(k TEXT, v TEXT);"
    "CREATE TABLE _truth_answers(q TEXT, a TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES"
    " ('restaurants','_id',0,'int',0,0,NULL,NULL),"
    " ('restaurants','name',1,'text',0,0,NULL,NULL),"
    " ('restaurants','cuisines',2,'enum',1,0,'[\"thai\",\"noodles\",\"italian\",\"pizza\","
    "\"coffee & tea\",\"cafe\",\"japanese\",\"sushi\",\"bar\"]',NULL),"
    " ('restaurants','price',3,'enum',0,0,'[\"cheap\",\"moderate\",\"expensive\",\"luxury\"]',NULL),"
    " ('restaurants','rating',4,'real',0,0,NULL,NULL),"
    " ('restaurants','num_reviews',5,'int',0,0,NULL,NULL),"
    " ('restaurants','location',6,'text',0,0,NULL,NULL),"
    " ('restaurants','reviews',7,'text',1,1,NULL,NULL),"
    " ('restaurants','opens',8,'time',0,0,NULL,NULL),"
    " ('dishes','_id',0,'int',0,0,NULL,NULL),"
    " ('dishes','restaurant_id',1,'int',0,0,NULL,NULL),"
    " ('dishes','name',2,'text',0,0,NULL,NULL),"
    " ('dishes','price',3,'real',0,0,NULL,NULL),"
    " ('dishes','tags',4,'text',1,0,NULL,NULL);";
