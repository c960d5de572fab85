// Completions for the search box from the API's `autocomplete` (progressive: the form works without it).
(() => {
  const input = document.getElementById("q");
  const list = document.getElementById("suggestions");
  if (!input || !list) return;
  const query = "query($p: String!) { autocomplete(prefix: $p, first: 8) { label } }";
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const prefix = input.value.trim();
    if (prefix.length < 2) return;
    timer = setTimeout(async () => {
      try {
        const response = await fetch("/graphql", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ query, variables: { p: prefix } }),
        });
        const body = await response.json();
        list.replaceChildren(...(body.data?.autocomplete || []).map((s) => {
          const option = document.createElement("option");
          option.value = s.label;
          return option;
        }));
      } catch (error) {
        // no completions; the search still works
      }
    }, 150);
  });
})();
