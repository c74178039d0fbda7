// What the test JSON-RPC proxies in front of a node share
// (t/tools/rpc-faults.mjs, t/tools/rpc-record.mjs): their arguments and the
// call that passes a request on. Imports no package.
import http from 'node:http';

// The "--key value" pairs of the command line as {key: value}. A word that
// is not an option or an option with no value, or a missing one of
// `required`, ends the process with status 2 and a line on stderr that
// starts with `name`.
export function proxyArgs(name, required) {
  const args = {};
  for (let i = 2; i < process.argv.length; i += 2) {
    const k = process.argv[i];
    if (!k.startsWith('--') || i + 1 >= process.argv.length) {
      console.error(`${name}: bad argument ${k}`);
      process.exit(2);
    }
    args[k.slice(2)] = process.argv[i + 1];
  }
  for (const k of required) {
    if (args[k] === undefined) {
      console.error(`${name}: missing --${k}`);
      process.exit(2);
    }
  }
  return args;
}

// POSTs body unchanged to upstream (a URL) and answers res with the
// upstream's status and body, as JSON; 502 with no body when the upstream
// cannot be reached.
export function forward(upstream, body, res) {
  const req = http.request(
    { hostname: upstream.hostname, port: upstream.port, path: upstream.pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
    (up) => {
      res.writeHead(up.statusCode, { 'Content-Type': 'application/json' });
      up.pipe(res);
    });
  req.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.end(body);
}
