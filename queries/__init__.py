"""Every Cypher statement Weft runs: named, parameterised constants, one module per purpose."""
