// What the browser checks share: Debian's headless Chromium through playwright-core (no downloaded
// browser), and a page watcher that records what a user would never want to see.
import { chromium } from "playwright-core";

/** Launches the system Chromium (CHROMIUM, default /usr/bin/chromium) headless, offline-quiet. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * Records on `report` the page's console errors ("text (url)"), uncaught errors (in both pageErrors and
 * consoleErrors), every request URL, and failed requests (network failures and HTTP status >= 400).
 */
export function watchPage(page, report) {
  Object.assign(report, { consoleErrors: [], pageErrors: [], failedRequests: [], requests: [] });
  page.on("console", (message) => {
    if (message.type() === "error") report.consoleErrors.push(`${message.text()} (${message.location().url || "?"})`);
  });
  page.on("pageerror", (error) => {
    report.pageErrors.push(String(error));
    report.consoleErrors.push(String(error));
  });
  page.on("request", (request) => report.requests.push(request.url()));
  page.on("requestfailed", (request) => report.failedRequests.push(request.url()));
  page.on("response", (response) => {
    if (response.status() >= 400) report.failedRequests.push(`${response.status()} ${response.url()}`);
  });
  return report;
}
