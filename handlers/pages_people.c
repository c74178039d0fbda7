/*
 * pages_people.c: the pages of handles, the board, receipts and public
 * profiles (docs/ARCHITECTURE.md, Website pages). Each shows the free JSON
 * read it names, through page_read and page_json, so a page holds exactly
 * what that read answers: a private tip's amount and note never (the
 * reads never have them), a private profile never (its read is a 404).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "html.h"
#include "json.h"
#include "pages.h"
#include "table.h"
#include "banned.h"

/* One section of a page: the read row_id (with query) under a heading, and a link to its JSON. */
static enum err
section(struct req *r, struct resp *w, struct buf *b, const char *heading, const char *row_id,
    const char *query)
{
	const struct endpoint *ep = table_row(row_id);
	json_object *o = NULL;
	int st = 0;
	enum err e;

	if ((e = page_read(r, row_id, query, &st, &o)) != ERR_NONE)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (st != 200) {
		e = page_read_fail(r, w, st, o);
		json_object_put(o);
		return e;
	}
	/* The interpretation the read carries is said once, plainly, above its data. */
	if (json_member_string(o, "interpretation", NULL))
		html_printf(b, "<p class=\"note\">%s</p>", json_member_string(o, "interpretation", NULL));
	json_object_object_del(o, "interpretation");
	html_printf(b, "<h2>%s</h2>", heading);
	page_json(b, o);
	html_printf(b, "<p class=\"note\">As JSON: <code>GET %s</code></p>\n", ep ? ep->pattern : "");
	json_object_put(o);
	return ERR_NONE;
}

enum err
h_page_handle_get(struct req *r, struct resp *w)
{
	const struct value *h = req_val(r, "handle");
	struct buf b;
	char title[128];
	enum err e;

	snprintf(title, sizeof(title), "%s", h->text);
	page_begin(&b, r->cfg, title);
	if ((e = section(r, w, &b, "Tips received and sent", "handles.profile", NULL)) != ERR_NONE ||
	    (e = section(r, w, &b, "Points", "handles.points", NULL)) != ERR_NONE) {
		buf_release(&b);
		return e;
	}
	html_printf(&b, "<p class=\"note\">Points are public reputation: not transferable, not "
	    "redeemable. The chronological list of tips is a paid read.</p>\n");
	return page_send(w, 200, &b);
}

enum err
h_page_board_get(struct req *r, struct resp *w)
{
	struct buf b;
	enum err e;

	page_begin(&b, r->cfg, "Board");
	if ((e = section(r, w, &b, "Top recipients and tippers", "board", "limit=25")) != ERR_NONE) {
		buf_release(&b);
		return e;
	}
	return page_send(w, 200, &b);
}

enum err
h_page_receipt_get(struct req *r, struct resp *w)
{
	struct buf b;
	enum err e;

	page_begin(&b, r->cfg, "Receipt");
	if ((e = section(r, w, &b, "The tips this transaction created or settled", "receipts.get",
	    NULL)) != ERR_NONE) {
		buf_release(&b);
		return e;
	}
	html_printf(&b, "<p class=\"note\">A private tip shows neither its amount nor its note "
	    "unless its tipper disclosed them.</p>\n");
	return page_send(w, 200, &b);
}

enum err
h_page_profile_get(struct req *r, struct resp *w)
{
	struct buf b;
	enum err e;

	page_begin(&b, r->cfg, "Public profile");
	if ((e = section(r, w, &b, "Profile", "site.x402_profile", NULL)) != ERR_NONE) {
		buf_release(&b);
		return e;
	}
	return page_send(w, 200, &b);
}
