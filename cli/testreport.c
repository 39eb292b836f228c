/* testreport.c: what `ptxrun test` reports of its cases: FAIL lines, TAP version 13 on standard
 * output, JUnit XML into a file. A report that cannot be written all is an error to the caller:
 * testreport_junit returns false, and the caller checks standard output once at the end. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *why_of(const TestCase *c)
{
    return c->why.text ? c->why.text : "";
}

/* text on standard output with its control characters written as \n, \t, \xNN (a newline in a
 * folder's name would end the line, and could forge a result line after it) and a backslash
 * before each character of also. */
static void print_escaped(const char *text, const char *also)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n' || *p == '\t')
            printf("\\%c", *p == '\n' ? 'n' : 't');
        else if (*p < 0x20 || *p == 0x7f)
            printf("\\x%02x", *p);
        else
            printf(strchr(also, *p) ? "\\%c" : "%c", *p);
    }
}

void testreport_plain(const TestCaseList *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const TestCase *c = &list->items[i];
        if (c->outcome != CASE_FAILED && c->outcome != CASE_UNSUPPORTED)
            continue;
        printf(c->outcome == CASE_FAILED ? "FAIL " : "UNSUPPORTED ");
        print_escaped(c->ptx, "");
        printf(": ");
        print_escaped(why_of(c), "");
        printf("\n");
    }
}

static void tap_escape(const char *text)
{
    print_escaped(text, "\"\\");
}

/* "ok N - PATH": in a TAP description '#' begins a directive (SKIP, TODO), so it is escaped. */
static void tap_line(const char *result, uint32_t number, const char *path)
{
    printf("%s %u - ", result, number);
    print_escaped(path, "#\\");
}

void testreport_tap(const TestCaseList *list)
{
    printf("TAP version 13\n1..%u\n", list->count);
    for (uint32_t i = 0; i < list->count; i++) {
        const TestCase *c = &list->items[i];
        if (c->outcome == CASE_NOT_YET) {
            tap_line("ok", i + 1, c->ptx);
            printf(" # SKIP ");
            print_escaped(why_of(c), "");
            printf("\n");
            continue;
        }
        if (c->outcome == CASE_CLOSE) {
            tap_line("ok", i + 1, c->ptx);
            printf(" # within its tolerance\n");
            continue;
        }
        if (c->outcome == CASE_UNSUPPORTED) {   /* not a pass, nor a TAP "# TODO" line: unlisted, it fails the run */
            tap_line("not ok", i + 1, c->ptx);
            printf(" # unsupported\n  ---\n  message: \"");
            tap_escape(why_of(c));
            printf("\"\n  outcome: unsupported\n  ...\n");
            continue;
        }
        tap_line(c->outcome == CASE_PASSED ? "ok" : "not ok", i + 1, c->ptx);
        printf("\n");
        if (c->outcome == CASE_PASSED)
            continue;
        printf("  ---\n  message: \"");
        tap_escape(why_of(c));
        printf("\"\n  exit: %d\n  expected_exit: %d\n  ...\n", c->got_exit, c->want_exit);
    }
}

static void xml_text(FILE *f, const char *s, size_t limit)
{
    for (size_t i = 0; s[i] && i < limit; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if (ch == '\n' || ch == '\t')
                fprintf(f, "&#%d;", ch);       /* kept in an attribute, where a parser makes them spaces */
            else if (ch < 0x20)
                fputc('?', f);                 /* not allowed in XML 1.0 */
            else
                fputc(ch, f);
        }
    }
}

bool testreport_junit(const TestCaseList *list, const char *path, unsigned failed, unsigned skipped, double seconds)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%u\" failures=\"%u\">\n", list->count,
            failed);
    fprintf(f, "  <testsuite name=\"ptxrun\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"%.3f\">\n",
            list->count, failed, skipped, seconds);
    for (uint32_t i = 0; i < list->count; i++) {
        const TestCase *c = &list->items[i];
        fputs("    <testcase classname=\"ptxrun\" name=\"", f);
        xml_text(f, c->ptx, 1000);
        fprintf(f, "\" time=\"%.3f\"", c->seconds > 0 ? c->seconds : 0);
        if (c->outcome == CASE_PASSED || c->outcome == CASE_CLOSE) {
            fputs("/>\n", f);
            continue;
        }
        if (c->outcome == CASE_NOT_YET || c->outcome == CASE_UNSUPPORTED) {
            fputs(">\n      <skipped message=\"", f);
            xml_text(f, why_of(c), SIZE_MAX);
            fputs("\"/>\n    </testcase>\n", f);
            continue;
        }
        fputs(">\n      <failure message=\"", f);
        xml_text(f, why_of(c), SIZE_MAX);
        fputs("\">", f);
        xml_text(f, c->output ? c->output : "", 20000);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    bool written = !ferror(f);
    return fclose(f) == 0 && written;
}

