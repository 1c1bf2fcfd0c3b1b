// The baseline of `npm run bench`: a bare Express 5 app with one route per operation, each sending
// fixed bytes (mockvideo's own answers, captured by bench/run.mjs). Usage:
//   node bench/baseline-express.mjs BODIES.json [PORT]   (BODIES.json: { "/api/g1/meta/setting": { "contentType", "body" } })
// Prints `baseline listening at http://127.0.0.1:PORT` once it listens.
import { readFileSync } from 'node:fs';
import express from 'express';

const [file, port = '0'] = process.argv.slice(2);
const bodies = file ? JSON.parse(readFileSync(file, 'utf8')) : { '/api/g1/meta/setting': { contentType: 'application/json; charset=utf-8', body: '{"data":{},"msg":"OK","result":1}' } };

const app = express();
for (const [path, { contentType, body }] of Object.entries(bodies)) {
  const bytes = Buffer.from(body, 'utf8');
  app.get(path, (_req, res) => {
    res.set('content-type', contentType).send(bytes);
  });
}
const server = app.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`baseline listening at http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
