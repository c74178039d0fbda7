// The timed loop both paying load generators share (t/tools/bench-paid-load.mjs
// for x402, t/mpp/bench-load.mjs for MPP): C concurrent workers, worker i
// calling pays[i mod k](url, init) in a loop until `seconds` have passed or
// `total` requests have started. Imports no package, so either folder of
// node_modules can use it. Resolves to {c, requests, ok, non2xx, errors,
// seconds, rps, p50, p99, mean}: ok counts the 2xx answers, non2xx the other
// answers, errors the requests that threw; rps is ok per second of the run;
// p50/p99/mean are milliseconds over every request, from its first byte sent
// (the unpaid request) to its paid answer's body read. `name` prefixes the
// one line written to stderr when some request threw.
export async function loadLoop({ name, pays, url, init, c, seconds, total }) {
  const lat = [];
  let ok = 0, non2xx = 0, errors = 0, started = 0;
  let firstError = null;
  const start = performance.now();
  const deadline = seconds !== null ? start + seconds * 1000 : Infinity;
  const more = () => (total !== null ? started < total : performance.now() < deadline);
  const worker = async (i) => {
    const pay = pays[i % pays.length];
    while (more()) {
      started++;
      const t0 = performance.now();
      try {
        const res = await pay(url, init);
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) ok++; else non2xx++;
      } catch (e) {
        errors++;
        firstError ??= String(e.message || e);
      }
      lat.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: c }, (_, i) => worker(i)));
  const elapsed = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const at = (q) => (lat.length ? lat[Math.min(lat.length - 1, Math.ceil(q * lat.length) - 1)] : 0);
  const r3 = (v) => Math.round(v * 1000) / 1000;
  if (firstError) process.stderr.write(`${name}: ${errors} request(s) threw; first: ${firstError}\n`);
  return {
    c, requests: lat.length, ok, non2xx, errors, seconds: r3(elapsed), rps: r3(ok / elapsed),
    p50: r3(at(0.5)), p99: r3(at(0.99)), mean: r3(lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : 0),
  };
}
