// Copies the pages' browser libraries (the network page's Cytoscape.js, GraphiQL and its React) from node_modules into server/static/vendor (run by `npm ci`).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, "..", "server", "static", "vendor");
const files = [
  ["cytoscape/dist/cytoscape.min.js", "cytoscape.min.js"],
  // GraphiQL at /graphql, served from here so it works with no internet (its UMD build and React 18's)
  ["graphiql/graphiql.min.js", "graphiql.min.js"],
  ["graphiql/graphiql.min.css", "graphiql.min.css"],
  ["react/umd/react.production.min.js", "react.production.min.js"],
  ["react-dom/umd/react-dom.production.min.js", "react-dom.production.min.js"],
];

mkdirSync(vendor, { recursive: true });
for (const [from, to] of files) {
  copyFileSync(join(here, "node_modules", from), join(vendor, to));
  console.log(`copied ${from} -> server/static/vendor/${to}`);
}
