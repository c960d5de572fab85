// Drives the network page in Debian's headless Chromium (playwright-core, no downloaded browser):
// waits for the drawing, applies a minimum weight with the controls, clicks a researcher, waits for the re-centred drawing, saves a screenshot
// (SCREENSHOT, and SCREENSHOT with -recentred before .png after the click)
// and prints one JSON object with what it saw, with the labels a reader sees (drawn, opaque, not too small
// at the zoom), how many pairs of them overlap and how many besides the centre's lie under another
// researcher's disc. Usage: node check-network-page.mjs URL SCREENSHOT
import { launchChromium, watchPage } from "./chromium.mjs";

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error("usage: node check-network-page.mjs URL SCREENSHOT");
  process.exit(2);
}

const browser = await launchChromium();
const report = {};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  watchPage(page, report);

  const ready = (centre) =>
    page.waitForFunction(
      (id) => document.body.dataset.state === "ready" && (!id || window.weftNetwork.centre === id),
      centre,
      { timeout: 60000 },
    );
  const snapshot = () =>
    page.evaluate(() => ({
      centre: window.weftNetwork.centre,
      apiNodeCount: window.weftNetwork.apiNodeCount,
      apiEdgeCount: window.weftNetwork.apiEdgeCount,
      drawnNodes: window.weftNetwork.cy.nodes().length,
      drawnEdges: window.weftNetwork.cy.edges().length,
      status: document.getElementById("status").textContent,
      path: window.location.pathname + window.location.search,
      labels: (() => {
        const cy = window.weftNetwork.cy;
        const seen = cy.nodes().filter((n) => n.style("label") && parseFloat(n.style("text-opacity")) > 0 &&
          parseFloat(n.style("font-size")) * cy.zoom() >= parseFloat(n.style("min-zoomed-font-size") || 0));
        const boxes = seen.map((n) => n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }));
        const meet = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
        let overlaps = 0;
        let covered = 0;
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => { if (meet(a, b)) overlaps += 1; }));
        seen.forEach((n, i) => cy.nodes().forEach((o) => {
          if (n.id() === window.weftNetwork.centre || o.id() === n.id()) return;
          if (meet(boxes[i], o.boundingBox({ includeLabels: false }))) covered += 1;
        }));
        return { shown: seen.map((n) => n.id()), overlaps, covered };
      })(),
    }));

  await page.goto(url, { waitUntil: "load" });
  await ready(null);
  report.first = await snapshot();
  await page.screenshot({ path: screenshot, fullPage: false });

  // The controls: minimum weight 2 redraws a smaller network (and the URL says so).
  await page.fill("input[name=minWeight]", "2");
  await page.click("button[type=submit]");
  await page.waitForFunction(
    () => document.body.dataset.state === "ready" && window.location.search.includes("minWeight=2"),
    null,
    { timeout: 60000 },
  );
  report.filtered = await snapshot();

  // The non-centre node farthest from its nearest neighbour on screen, so the click hits only it.
  const target = await page.evaluate(() => {
    const cy = window.weftNetwork.cy;
    const box = cy.container().getBoundingClientRect();
    const nodes = cy.nodes().map((n) => ({ id: n.id(), p: n.renderedPosition() }));
    let best = null;
    for (const node of nodes) {
      if (node.id === window.weftNetwork.centre) continue;
      const gap = Math.min(...nodes.filter((o) => o !== node).map((o) => Math.hypot(o.p.x - node.p.x, o.p.y - node.p.y)));
      const inside = node.p.x > 10 && node.p.y > 10 && node.p.x < box.width - 10 && node.p.y < box.height - 10;
      if (inside && (!best || gap > best.gap)) best = { id: node.id, gap, x: box.left + node.p.x, y: box.top + node.p.y };
    }
    return best;
  });
  report.clicked = target ? target.id : null;
  if (target) {
    await page.mouse.move(target.x, target.y);
    report.tooltip = await page.evaluate(() => document.getElementById("tooltip").textContent);
    await page.mouse.click(target.x, target.y);
    await ready(target.id);
    report.second = await snapshot();
  }
  await page.screenshot({ path: screenshot.replace(/\.png$/, "-recentred.png"), fullPage: false });
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
