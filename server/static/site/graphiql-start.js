// Starts GraphiQL at /graphql with the query, variables and headers kept in the page's URL (shareable).
(() => {
  const EXAMPLE = `# Weft's GraphQL API. Run with Ctrl-Enter; the Docs button lists every field.
{
  mostCited(first: 5) {
    edges { node { title year citedByCount canonicalUrl } }
  }
}
`;
  const parameters = Object.fromEntries(new URLSearchParams(window.location.search));
  const update = (data) => {
    Object.assign(parameters, data);
    const search = new URLSearchParams(Object.entries(parameters).filter(([, v]) => Boolean(v)));
    history.replaceState(null, "", "?" + search.toString());
  };
  const fetcher = GraphiQL.createFetcher({ url: window.location.href.split("?")[0] });
  const App = () =>
    React.createElement(GraphiQL, {
      fetcher,
      defaultEditorToolsVisibility: true,
      query: parameters.query || parameters.q || EXAMPLE,
      variables: parameters.variables,
      onEditQuery: (query) => update({ query, q: "" }),
      onEditVariables: (variables) => update({ variables }),
      inputValueDeprecation: true,
      isHeadersEditorEnabled: true,
    });
  ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(App));
})();
