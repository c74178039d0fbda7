/*
 * Catalog items (lib/catalog.c) that t/fuzz/catalog found mishandled; the
 * inputs are in t/fuzz/corpus/catalog/ as well. The listing cases with
 * signed offers are in t/unit/receipt.c.
 */
#include <string.h>

#include <json-c/json.h>

#include "catalog.h"
#include "json.h"
#include "utf8.h"
#include "tap.h"
#include "banned.h"

static json_object *
parse(const char *s)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict(s, strlen(s), NULL, &o, &je) < 0)
		return NULL;
	return o;
}

int
main(void)
{
	static struct catalog_item it;
	char why[256];
	json_object *o;

	/* "type %.20s" cut the type inside U+202E: the reason was not UTF-8. */
	o = parse("{\"resource\":\"https://a.example.com/x\",\"type\":\"httpk\\u202e evil\\u0007 bell\\u0085 nel\","
	    "\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0, "an item of another type is refused");
	ok(utf8_valid(why, strlen(why)) && strncmp(why, "type httpk", 10) == 0,
	    "its reason quotes the type cut to whole characters: %s", why);
	json_object_put(o);

	/* Found by the invariant that the URL kept is the URL checked: the
	 * parser trims spaces and drops tab and newlines before checking, so
	 * " https://a.example.com/x\n\ty " was stored and shown as listed. */
	o = parse("{\"resource\":\" https://a.example.com/x\\n\\ty \",\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0 && strstr(why, "control") != NULL,
	    "a resource URL with spaces, a newline and a tab is refused");
	json_object_put(o);
	o = parse("{\"resource\":\"https://a.example.com/x\\u007f\",\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) < 0, "a resource URL with DEL is refused");
	json_object_put(o);
	o = parse("{\"resource\":\"https://A.example.com/x/../y?q=1\",\"description\":\"d\"}");
	ok(o != NULL && catalog_item_parse(o, &it, why, sizeof(why)) == 0 &&
	    strcmp(it.url, "https://A.example.com/x/../y?q=1") == 0, "a listed URL that is only not normalized is kept as listed");
	json_object_put(o);

	/* A page's total was passed on as given, -250 included. */
	{
		json_object *items = NULL;
		long long total = 0;

		o = parse("{\"items\":[],\"pagination\":{\"total\":-250}}");
		ok(o != NULL && catalog_page(o, &items, &total) == 0 && total == -1,
		    "a negative total is taken as unknown (-1)");
		json_object_put(o);
		o = parse("{\"resources\":[],\"pagination\":{\"total\":250}}");
		ok(o != NULL && catalog_page(o, &items, &total) == 0 && total == 250 &&
		    json_object_is_type(items, json_type_array), "a total of 250 is kept");
		json_object_put(o);
	}
	return done_testing();
}
