// pacedFetch: fetch that waits out a 429 (the service's rate classes,
// INSTALL section 11) as a polite client does: it sleeps Retry-After
// seconds (2 when absent) and sends the same request again, up to a
// minute in all, then hands back the last 429. A Request is sent as a
// clone each time (its body can be read once); init bodies must be
// strings. Used by the demo seed scripts, which publish
// a burst at start-up into rows whose production rates allow a few per
// second. No dependencies, so t/tools/ imports it too.
const GIVE_UP_MS = 60_000;

export async function pacedFetch(url, init = {}) {
  const until = Date.now() + GIVE_UP_MS;
  for (;;) {
    const res = await fetch(url instanceof Request ? url.clone() : url, init);
    if (res.status !== 429) return res;
    const wait = Math.max(1, Number(res.headers.get('retry-after')) || 2) * 1000;
    if (Date.now() + wait > until) return res;
    await res.arrayBuffer().catch(() => null);
    await new Promise((r) => setTimeout(r, wait));
  }
}
