// Drives Neo4j Browser (served by the local Neo4j's HTTP connector) in Debian's headless Chromium
// (playwright-core, no downloaded browser): opens BROWSER_URL as `weft neo4j start` prints it, waits until
// it is connected to the Bolt URL (by itself when auth is off; logging in first when NEO4J_PASSWORD is set),
// types QUERY into the editor, runs it, waits for the result table, saves a screenshot and prints one JSON
// object with what it saw, including every request to a host other than the loopback address (`external`).
// Usage: node check-neo4j-browser.mjs BROWSER_URL BOLT_URL QUERY SCREENSHOT  (env NEO4J_USER, NEO4J_PASSWORD)
import { launchChromium, watchPage } from "./chromium.mjs";

const [browserUrl, boltUrl, query, screenshot] = process.argv.slice(2);
if (!browserUrl || !boltUrl || !query || !screenshot) {
  console.error("usage: node check-neo4j-browser.mjs BROWSER_URL BOLT_URL QUERY SCREENSHOT");
  process.exit(2);
}
const password = process.env.NEO4J_PASSWORD || "";
const user = process.env.NEO4J_USER || "neo4j";

const browser = await launchChromium();
const report = { title: null, connected: null, frame: null };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  watchPage(page, report);

  await page.goto(browserUrl, { waitUntil: "load" });
  report.title = await page.title();

  if (password) {
    await page.getByTestId("username").waitFor({ timeout: 60000 });
    await page.getByTestId("username").fill(user);
    await page.getByTestId("password").fill(password);
    await page.getByTestId("connect").click();
  }
  // the :server connect frame says so once Bolt answers
  await page.getByText("Connected to Neo4j").first().waitFor({ timeout: 60000 });
  report.connected = true;

  await page.getByTestId("activeEditor").click();
  await page.keyboard.type(query);
  await page.getByTestId("editor-Run").click();
  // the newest frame is on top; wait for its result table under the query's own command line
  const frame = page.getByTestId("frame").filter({ has: page.getByTestId("frameCommand").getByText(query) });
  await frame.locator("table").first().waitFor({ timeout: 60000 });
  report.frame = await frame.first().evaluate((f) => ({
    command: f.querySelector("[data-testid=frameCommand]")?.innerText ?? null,
    columns: [...f.querySelectorAll("thead th")].map((th) => th.innerText).filter((t) => t),
    rows: [...f.querySelectorAll("tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td[role=cell]")].map((td) => td.innerText)),
    status: f.querySelector("[data-testid=frameStatusbar]")?.innerText ?? null,
  }));
  await page.screenshot({ path: screenshot, fullPage: false });
} finally {
  await browser.close();
}
const loopback = new Set(["127.0.0.1", "localhost", "[::1]"]);
report.external = report.requests.filter((u) => /^(https?|wss?):/.test(u) && !loopback.has(new URL(u).hostname));
console.log(JSON.stringify(report));
