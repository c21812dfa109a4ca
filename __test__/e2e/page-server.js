"use strict";
// The untrusted web page of the e2e's provenance phase, bound to 127.0.0.1 only.
//   node page-server.js <url-file> <request-log.jsonl> <page-path> <page-text-file>
// Serves the text in <page-text-file> as text/plain (the host's web_fetch then needs no readability pass) at
// <page-path> only, and logs every request, so that the checks can tell the host really fetched the page.
// Writes the page's full URL to <url-file> once it listens. The path is new for every run: web_fetch caches a
// URL's result in-process for 15 minutes.
const http = require("node:http");
const fs = require("node:fs");

const [urlFile, requestLog, pagePath, textFile] = process.argv.slice(2);
if (!urlFile || !requestLog || !pagePath || !textFile) {
  console.error("usage: page-server.js <url-file> <request-log> <page-path> <page-text-file>");
  process.exit(2);
}
const text = fs.readFileSync(textFile, "utf8");

const server = http.createServer((req, res) => {
  const hit = req.method === "GET" && req.url === pagePath;
  fs.appendFileSync(requestLog, JSON.stringify({
    at: new Date().toISOString(), method: req.method, url: req.url, status: hit ? 200 : 404,
    userAgent: req.headers["user-agent"] || null,
  }) + "\n");
  res.writeHead(hit ? 200 : 404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(hit ? text : "not found\n");
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  fs.writeFileSync(urlFile, `http://127.0.0.1:${port}${pagePath}`);
  console.log(`page server listening on http://127.0.0.1:${port}${pagePath}`);
});
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
