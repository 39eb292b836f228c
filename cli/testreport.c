/* testreport.c: what `ptxrun test` reports of its cases: FAIL lines, TAP version 13 on standard
 * output, JUnit XML into a file. A report that cannot be written all is an error to the caller:
 * testreport_junit returns false, and the caller checks standard output once at the end. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void testreport_plain(const TestCaseList *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const TestCase *c = &list->items[i];
        if (c->outcome == CASE_FAILED)
            printf("FAIL %s: %s\n", c->ptx, c->why);
        else if (c->outcome == CASE_UNSUPPORTED)
            printf("UNSUPPORTED %s: %s\n", c->ptx, c->why);
    }
}

static void tap_escape(const char *text)
{
    for (const char *p = text; *p; p++)
        printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
}

void testreport_tap(const TestCaseList *list)
{
    printf("TAP version 13\n1..%u\n", list->count);
    for (uint32_t i = 0; i < list->count; i++) {
        const TestCase *c = &list->items[i];
        if (c->outcome == CASE_NOT_YET) {
            printf("ok %u - %s # SKIP %s\n", i + 1, c->ptx, c->why);
            continue;
        }
        if (c->outcome == CASE_CLOSE) {
            printf("ok %u - %s # within its tolerance\n", i + 1, c->ptx);
            continue;
        }
        if (c->outcome == CASE_UNSUPPORTED) {   /* not a pass, nor a TAP "# TODO" line: unlisted, it fails the run */
            printf("not ok %u - %s # unsupported\n  ---\n  message: \"", i + 1, c->ptx);
            tap_escape(c->why);
            printf("\"\n  outcome: unsupported\n  ...\n");
            continue;
        }
        printf("%s %u - %s\n", c->outcome == CASE_PASSED ? "ok" : "not ok", i + 1, c->ptx);
        if (c->outcome == CASE_PASSED)
            continue;
        printf("  ---\n  message: \"");
        tap_escape(c->why);
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
            if (ch < 0x20 && ch != '\n' && ch != '\t')
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
            xml_text(f, c->why, sizeof c->why);
            fputs("\"/>\n    </testcase>\n", f);
            continue;
        }
        fputs(">\n      <failure message=\"", f);
        xml_text(f, c->why, sizeof c->why);
        fputs("\">", f);
        xml_text(f, c->output ? c->output : "", 20000);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    bool written = !ferror(f);
    return fclose(f) == 0 && written;
}

