"""Project memory as a product: what the front ends share beyond the façade — the rulebook, its
exports and snapshots, imports of what a project already wrote (rule files, ADRs, git history),
staleness, evaluation and compare mode. Every module here calls the façade only."""
