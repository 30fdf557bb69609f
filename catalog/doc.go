// Package catalog is plankit's knowledge made visible and checkable: the
// clauses of the specification (SPEC.md) with their groups, the suite
// version each entered and the named choices for the specification's silent
// points; the session events the simulator writes with the exact shape of
// their data; and the plan-mode service surface (get and set with their doc
// comments), generated from the reference's Go source.
//
// Each catalog is rendered as Markdown and JSON. The rendered files beside
// this package (clauses.md, clauses.json, events.md, events.json, service.md,
// service.json) are generated (Files renders them): `go generate ./...`
// writes them and the module's freshness test fails when one is stale.
//
// Package coverage (catalog/coverage) relates the clauses to the checks that
// cite them: every clause needs a scenario and a property, and every check
// must cite only known clauses.
package catalog
