// The lower bound of `npm run bench`: a bare `node:http` server that answers each operation's path
// with bytes computed once at start (mockvideo's own answers, captured by bench/run.mjs), and 404
// for anything else. No framework, no parsing of the query. Usage:
//   node bench/baseline-node.mjs BODIES.json [PORT]   (BODIES.json: { "/api/g1/meta/setting": { "contentType", "body" } })
// Prints `node:http listening at http://127.0.0.1:PORT` once it listens.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, port = '0'] = process.argv.slice(2);
const bodies = file
  ? JSON.parse(readFileSync(file, 'utf8'))
  : {
      '/api/g1/meta/setting': {
        contentType: 'application/json; charset=utf-8',
        body: '{"data":{},"msg":"OK","result":1}',
      },
    };

/** Path → [status, raw header list, body bytes], all computed before the first request. */
const answers = new Map();
for (const [path, { contentType, body }] of Object.entries(bodies)) {
  const bytes = Buffer.from(body, 'utf8');
  answers.set(path, [200, ['content-type', contentType, 'content-length', String(bytes.length)], bytes]);
}
const notFound = Buffer.from('{"error":"not found"}');
const missing = [404, ['content-type', 'application/json', 'content-length', String(notFound.length)], notFound];

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const [status, headers, bytes] = answers.get(query < 0 ? url : url.slice(0, query)) ?? missing;
  res.writeHead(status, headers);
  res.end(bytes);
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`node:http listening at http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
