// Loads each of the site's pages in Debian's headless Chromium (playwright-core, no downloaded browser):
// collects console errors and failed requests, saves a full-page screenshot per page, reads the numbers
// the page shows (data-metric), types AUTOCOMPLETE (env) into a search page's box and reads the
// completions, measures each iframe's page (scrolled into view: the document's height against the frame's
// height, the #cy drawing's height), runs axe-core (npm, injected from node_modules, no CDN) on it, and reports
// its response headers, the URLs its elements name, Content-Security-Policy violations and whether GraphiQL drew.
// Usage: node check-site-pages.mjs BASE OUTDIR NAME=PATH...   Prints one JSON object: {NAME: report}.
import { launchChromium, watchPage } from "./chromium.mjs";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const AXE_SOURCE = readFileSync(join(here, "node_modules", "axe-core", "axe.min.js"), "utf8");
const [base, outdir, ...pages] = process.argv.slice(2);
if (!base || !outdir || pages.length === 0) {
  console.error("usage: node check-site-pages.mjs BASE OUTDIR NAME=PATH...");
  process.exit(2);
}

const browser = await launchChromium();
const reports = {};
try {
  for (const spec of pages) {
    const at = spec.indexOf("=");
    const [name, path] = [spec.slice(0, at), spec.slice(at + 1)];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const report = watchPage(page, {});
    // Content-Security-Policy violations as the page reports them (the init script runs outside the policy)
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(base + path, { waitUntil: "networkidle", timeout: 120000 });
    report.status = response.status();
    report.headers = response.headers();
    report.path = new URL(page.url()).pathname;
    report.title = await page.title();
    report.h1 = await page.evaluate(() => document.querySelector("h1")?.textContent ?? null);
    report.metrics = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll("[data-metric]")].map((e) => [e.dataset.metric, e.textContent.trim()])),
    );
    if (process.env.AUTOCOMPLETE && name.endsWith("search")) {
      // The search box's completions come from the API's autocomplete as one types.
      await page.fill("#q", "");
      await page.type("#q", process.env.AUTOCOMPLETE, { delay: 60 });
      await page.waitForFunction(() => document.querySelectorAll("#suggestions option").length > 0, null, { timeout: 30000 });
      report.suggestions = await page.evaluate(() => [...document.querySelectorAll("#suggestions option")].map((o) => o.value));
    }
    // every URL the page's elements link or load (href, src, action), and whether GraphiQL drew its editor
    report.links = await page.evaluate(() =>
      [...document.querySelectorAll("[href], [src], [action]")].map((e) => e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action")),
    );
    report.graphiqlDrawn = await page.evaluate(() => document.querySelector(".graphiql-container .CodeMirror") !== null);
    report.cspViolations = await page.evaluate(() => window.__cspViolations);
    report.frames = [];
    for (const element of await page.$$("iframe")) {
      await element.scrollIntoViewIfNeeded();
      const frame = await element.contentFrame();
      await frame.waitForLoadState("load");
      await frame.waitForFunction(() => document.body && document.body.dataset.state !== "loading", null, { timeout: 60000 });
      report.frames.push(await frame.evaluate(() => ({
        path: window.location.pathname,
        innerHeight: window.innerHeight,
        scrollHeight: document.documentElement.scrollHeight,
        cyHeight: document.getElementById("cy")?.getBoundingClientRect().height ?? null,
      })));
    }
    await page.screenshot({ path: join(outdir, `${name}.png`), fullPage: true });
    await page.evaluate(AXE_SOURCE); // evaluated by the driver: an injected <script> would break the page's policy
    const axe = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ["violations"] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
    });
    report.violations = axe;
    reports[name] = report;
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(reports));
