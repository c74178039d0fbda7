/*
 * html: the one HTML escaping helper and the page template (lib/html.h),
 * with text that tries to break out of an element or an attribute.
 */
#include <stdint.h>
#include <string.h>

#include "html.h"
#include "tap.h"
#include "banned.h"

struct ecase {
	const char *in;
	const char *want;
};

static const struct ecase esc_cases[] = {
	{ "plain text", "plain text" },
	{ "", "" },
	{ "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
	{ "\" onmouseover=\"x", "&quot; onmouseover=&quot;x" },
	{ "it's", "it&#39;s" },
	{ "a & b", "a &amp; b" },
	{ "&amp;", "&amp;amp;" },
	{ "tab\tnew\nline", "tab\tnew\nline" },
	{ "nul\x01" "bell\x07" "del\x7f" "end", "nulbelldelend" },
	{ "\xc3\xa9t\xc3\xa9 <b>", "\xc3\xa9t\xc3\xa9 &lt;b&gt;" },
};

int
main(void)
{
	struct buf b;

	for (size_t i = 0; i < sizeof(esc_cases) / sizeof(esc_cases[0]); i++) {
		buf_init(&b, 1024);
		ok(html_esc(&b, esc_cases[i].in, strlen(esc_cases[i].in)) == 0, "escape %zu: 0", i);
		is_str(buf_str(&b), esc_cases[i].want, "escape %zu: %s", i, esc_cases[i].want);
		buf_release(&b);
	}

	buf_init(&b, 1024);
	ok(html_esc(&b, NULL, 5) == 0 && b.len == 0, "NULL text writes nothing");
	ok(html_printf(&b, "<a href=\"/handles/%u?q=%u\" title=\"%s\">%s</a>%S %d %U %I 100%%",
	    "github:a b", "x&y=<z>", "\"t\"", "<i>", "<br>", -3, (uint64_t)18446744073709551615u,
	    (int64_t)-9) == 0, "template: 0");
	is_str(buf_str(&b), "<a href=\"/handles/github%3Aa%20b?q=x%26y%3D%3Cz%3E\" title=\"&quot;t&quot;\">"
	    "&lt;i&gt;</a><br> -3 18446744073709551615 -9 100%", "template: text escaped, URL parts "
	    "encoded, markup kept");
	buf_reset(&b);
	ok(html_printf(&b, "%s|%u|%S", (const char *)NULL, (const char *)NULL, (const char *)NULL) == 0 &&
	    strcmp(buf_str(&b), "||") == 0, "template: NULL strings as empty");
	buf_reset(&b);
	ok(html_printf(&b, "a %x b", 1) == -1, "template: an unknown conversion fails");
	buf_reset(&b);
	ok(html_printf(&b, "a %") == -1, "template: a trailing percent fails");
	buf_release(&b);

	buf_init(&b, 8);
	ok(html_printf(&b, "%s", "<<<<<<<<") == -1 && b.full, "template: the cap holds");
	buf_release(&b);
	return done_testing();
}
