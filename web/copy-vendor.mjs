// Copies the page's browser libraries from node_modules into server/static/vendor (run by `npm ci`).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, "..", "server", "static", "vendor");
const files = [["cytoscape/dist/cytoscape.min.js", "cytoscape.min.js"]];

mkdirSync(vendor, { recursive: true });
for (const [from, to] of files) {
  copyFileSync(join(here, "node_modules", from), join(vendor, to));
  console.log(`copied ${from} -> server/static/vendor/${to}`);
}
