// Weft's network page: fetches researcherNetwork from /graphql and draws it with Cytoscape.js.
// Node size = paper count, colour = community, edge width = shared papers; hover shows details,
// click re-centres. Labels that would overlap are hidden: the centre's first, then the others by distance
// and papers, each only where it overlaps none already shown (a hidden one shows on hover).
// `window.weftNetwork` exposes the drawn state for the browser test.
(function () {
  "use strict";

  const MAX_LABELS = 40;
  const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"];
  const QUERY = `query Network($id: String!, $depth: Int!, $minWeight: Int!, $yearFrom: Int, $yearTo: Int, $limit: Int!) {
    researcherNetwork(id: $id, depth: $depth, minWeight: $minWeight, yearFrom: $yearFrom, yearTo: $yearTo, limit: $limit) {
      centre truncated totalNodeCount exploredDepth
      nodes { id name paperCount distance community }
      edges { source target weight firstYear lastYear }
      stats { nodeCount edgeCount density components averageClustering }
    }
  }`;

  const body = document.body;
  const form = document.getElementById("controls");
  const status = document.getElementById("status");
  const tooltip = document.getElementById("tooltip");
  const state = { centre: body.dataset.researcherId, apiNodeCount: null, apiEdgeCount: null, cy: null };
  window.weftNetwork = state;

  function readControls() {
    const data = new FormData(form);
    const num = (name) => (data.get(name) === "" || data.get(name) === null ? null : Number(data.get(name)));
    return { depth: num("depth") || 1, minWeight: num("minWeight") || 1, yearFrom: num("yearFrom"),
      yearTo: num("yearTo"), limit: num("limit") || 200 };
  }

  function writeControls(params) {
    for (const [name, value] of Object.entries(params)) {
      if (form.elements[name]) form.elements[name].value = value === null ? "" : String(value);
    }
  }

  function queryString(params) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, String(value));
    return search.toString();
  }

  function paramsFromUrl() {
    const search = new URLSearchParams(window.location.search);
    const num = (name, fallback) => (search.has(name) && search.get(name) !== "" ? Number(search.get(name)) : fallback);
    return { depth: num("depth", 1), minWeight: num("minWeight", 1), yearFrom: num("yearFrom", null),
      yearTo: num("yearTo", null), limit: num("limit", 200) };
  }

  function setStatus(text, isError) {
    status.textContent = text;
    status.classList.toggle("error", Boolean(isError));
  }

  function updateExportLinks(params) {
    for (const fmt of ["graphml", "gexf", "json"]) {
      document.getElementById(`export-${fmt}`).href =
        `/export/researchers/${encodeURIComponent(state.centre)}/network.${fmt}?${queryString(params)}`;
    }
  }

  async function fetchNetwork(params) {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ query: QUERY, variables: { id: state.centre, ...params } }),
    });
    const payload = await response.json();
    if (payload.errors && payload.errors.length) throw new Error(payload.errors.map((e) => e.message).join("; "));
    return payload.data.researcherNetwork;
  }

  function elementsOf(network) {
    const nodes = network.nodes.map((n) => ({
      group: "nodes",
      data: { id: n.id, name: n.name || n.id, paperCount: n.paperCount, distance: n.distance,
        community: n.community, colour: PALETTE[n.community % PALETTE.length],
        size: 14 + 6 * Math.sqrt(n.paperCount) },
      classes: n.id === network.centre ? "centre" : "",
    }));
    const edges = network.edges.map((e) => ({
      group: "edges",
      data: { id: `${e.source}|${e.target}`, source: e.source, target: e.target, weight: e.weight,
        firstYear: e.firstYear, lastYear: e.lastYear, width: Math.min(1 + 1.5 * Math.log2(e.weight + 1), 12) },
    }));
    return nodes.concat(edges);
  }

  function draw(network) {
    const elements = elementsOf(network);
    if (!state.cy) {
      state.cy = cytoscape({
        container: document.getElementById("cy"),
        elements,
        minZoom: 0.1,
        maxZoom: 4,
        style: [
          { selector: "node", style: { "background-color": "data(colour)", width: "data(size)", height: "data(size)",
            label: "data(name)", "font-size": 8, "text-opacity": 0, color: "#1d2433" } },
          { selector: "node.named, node.hovered", style: { "text-opacity": 0.9 } },
          { selector: "node.hovered", style: { "z-index": 10, "text-background-color": "#fff",
            "text-background-opacity": 0.85, "text-background-padding": 1 } },
          { selector: "node.centre", style: { "border-width": 3, "border-color": "#111", "font-weight": "bold" } },
          { selector: "edge", style: { width: "data(width)", "line-color": "#a0aec0", opacity: 0.6,
            "curve-style": "haystack" } },
        ],
      });
      bindEvents(state.cy);
    } else {
      state.cy.elements().remove();
      state.cy.add(elements);
    }
    state.cy.layout({ name: "cose", animate: false, randomize: true, nodeRepulsion: () => 8000,
      idealEdgeLength: () => 60, numIter: 1000 }).run();
    state.cy.fit(undefined, 30);
    nameWithoutOverlap(state.cy, network.centre);
  }

  function overlaps(a, b) {
    return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  }

  // Shows the labels that overlap no label already shown and no other researcher's disc (drawn over
  // it), in order of importance: the centre (always shown), then nearer rings before farther ones, more
  // papers first, at most MAX_LABELS. Positions and label sizes are both in model units, so what overlaps does not
  // change with the zoom.
  function nameWithoutOverlap(cy, centre) {
    const order = cy.nodes().sort((a, b) =>
      (b.id() === centre) - (a.id() === centre) ||
      a.data("distance") - b.data("distance") || b.data("paperCount") - a.data("paperCount"));
    const discs = cy.nodes().map((n) => ({ id: n.id(), box: n.boundingBox({ includeLabels: false }) }));
    const shown = [];
    cy.nodes().removeClass("named");
    order.forEach((node) => {
      if (shown.length >= MAX_LABELS) return;
      const box = node.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
      const free = shown.every((other) => !overlaps(box, other)) &&
        discs.every((disc) => disc.id === node.id() || !overlaps(box, disc.box));
      if (node.id() === centre || free) {
        node.addClass("named");
        shown.push(box);
      }
    });
  }

  function bindEvents(cy) {
    cy.on("mouseover", "node", (event) => {
      const d = event.target.data();
      tooltip.textContent = `${d.name} — ${d.paperCount} papers, ${event.target.degree()} co-authors shown, ` +
        `${d.distance} hop(s) from the centre, community ${d.community}`;
      const p = event.renderedPosition;
      tooltip.style.left = `${p.x + 12}px`;
      tooltip.style.top = `${p.y + 12}px`;
      tooltip.hidden = false;
    });
    cy.on("mouseover", "edge", (event) => {
      const d = event.target.data();
      const years = d.firstYear ? ` (${d.firstYear}–${d.lastYear})` : "";
      tooltip.textContent = `${d.weight} shared paper(s)${years}`;
      const p = event.renderedPosition;
      tooltip.style.left = `${p.x + 12}px`;
      tooltip.style.top = `${p.y + 12}px`;
      tooltip.hidden = false;
    });
    cy.on("mouseover", "node", (event) => { event.target.addClass("hovered"); });
    cy.on("mouseout", "node", (event) => { event.target.removeClass("hovered"); });
    cy.on("mouseout", "node, edge", () => { tooltip.hidden = true; });
    cy.on("tap", "node", (event) => {
      const id = event.target.id();
      if (id !== state.centre) recentre(id);
    });
  }

  async function load(params, push) {
    body.dataset.state = "loading";
    tooltip.hidden = true;
    setStatus("Loading…");
    writeControls(params);
    try {
      const network = await fetchNetwork(params);
      if (!network) {
        state.apiNodeCount = 0;
        state.apiEdgeCount = 0;
        if (state.cy) state.cy.elements().remove();
        document.getElementById("centre-name").textContent = state.centre;
        setStatus(`No researcher has the id ${state.centre}.`, true);
        body.dataset.state = "ready";
        return;
      }
      state.centre = network.centre;
      state.apiNodeCount = network.nodes.length;
      state.apiEdgeCount = network.edges.length;
      draw(network);
      const centre = network.nodes.find((n) => n.id === network.centre);
      document.getElementById("centre-name").textContent = centre ? centre.name || centre.id : network.centre;
      document.getElementById("cy").setAttribute("aria-label", `Co-authorship network of ` +
        `${centre ? centre.name || centre.id : network.centre}: ${network.nodes.length} researchers`);
      const s = network.stats;
      setStatus(`${s.nodeCount} researchers, ${s.edgeCount} ties, ${s.components} component(s), density ` +
        `${s.density.toFixed(3)}, clustering ${s.averageClustering.toFixed(3)}` +
        (network.truncated ? ` — showing the ${s.nodeCount} most relevant of ${network.exploredDepth < params.depth ? "at least " : ""}` +
        `${network.totalNodeCount}` : ""));
      updateExportLinks(params);
      const url = `/researchers/${encodeURIComponent(state.centre)}/network?${queryString(params)}`;
      if (push) window.history.pushState({ centre: state.centre, params }, "", url);
      else window.history.replaceState({ centre: state.centre, params }, "", url);
      body.dataset.state = "ready";
    } catch (error) {
      setStatus(`Could not load the network: ${error.message}`, true);
      body.dataset.state = "failed";
    }
  }

  function recentre(id) {
    state.centre = id;
    load(readControls(), true);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load(readControls(), true);
  });
  window.addEventListener("popstate", (event) => {
    if (event.state && event.state.centre) {
      state.centre = event.state.centre;
      load(event.state.params, false);
    }
  });

  load(paramsFromUrl(), false);
})();
