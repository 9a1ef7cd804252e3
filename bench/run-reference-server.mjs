// The node:http reference server of npm run bench (beside nginx): fixed buffers over plain
// node:http, one process, nothing else. A child process of bench/run.mjs, so it never shares an
// event loop with the load generator.
//   node bench/run-reference-server.mjs <manifest.json> <port>
// The manifest lists { path, file, headers } entries; anything else answers 404.
import { readFileSync } from "node:fs";
import http from "node:http";

const [manifestFile, port] = process.argv.slice(2);
const routes = new Map(
  JSON.parse(readFileSync(manifestFile, "utf8")).map(({ path, file, headers }) => {
    const body = readFileSync(file);
    return [path, { body, headers: { ...headers, "content-length": String(body.length) } }];
  }),
);

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const route = routes.get(req.url);
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, route.headers);
  res.end(route.body);
});
server.listen(Number(port), "127.0.0.1", () => console.log("listening"));
const stop = () => server.close(() => process.exit(0)).closeAllConnections();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
