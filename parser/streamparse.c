/* streamparse.c: parse_module_stream, from the grammar of parser.y built a second time without
 * LAC (the Makefile's build/parser_stream.c; see parse_module_stream there). Its parser is
 * renamed so that both can be linked. */
#define PARSER_STREAM 1
#define yyparse parse_stream_yyparse
#include "parser_stream.c"
