"""Request and response models of the HTTP API (docs/api.md). The trace itself is defined by
`runner.trace` and passed through as JSON; these models never redefine it."""
