package catalog

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

func TestCatalogIsConsistent(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// constants returns the string constants of a Go file whose names start
// with prefix, by name.
func constants(t *testing.T, file, prefix string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, prefix) || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					out[n.Name] = v
				}
			}
		}
	}
	return out
}

// The event catalog lists exactly the spec.Type* constants.
func TestEventTypesMatchSpec(t *testing.T) {
	var want []string
	for _, v := range constants(t, "../spec/names.go", "Type") {
		want = append(want, v)
	}
	var got []string
	for _, e := range Events {
		got = append(got, e.Type)
		if e.Writer != "runtime" && e.Writer != "plugin" {
			t.Errorf("%s: writer %q", e.Type, e.Writer)
		}
		for _, c := range e.Clauses {
			if _, ok := spec.Lookup(c); !ok {
				t.Errorf("%s cites unknown clause %s", e.Type, c)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("event catalog types %v\nspec Type* constants    %v", got, want)
	}
}

// traceFiles are every example and the catalog's own every-event trace.
func traceFiles(t *testing.T) []string {
	t.Helper()
	examples, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	own, _ := filepath.Glob("testdata/*.yaml")
	return append(examples, own...)
}

// outsideEvents are the events of a run that no runtime or plugin wrote:
// an outside writer's appends and the logs agents were opened with.
func outsideEvents(run *trace.Run) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	mark := func(agent string, seq int) {
		if out[agent] == nil {
			out[agent] = map[int]bool{}
		}
		out[agent][seq] = true
	}
	for _, st := range run.Steps {
		switch a := st.Result.Action; {
		case a.Append != nil:
			for _, e := range st.Result.Appended {
				mark(e.Agent, e.Event.Seq)
			}
		case a.Open != nil:
			for i := range a.Open.Log {
				mark(a.Open.Agent, i)
			}
		}
	}
	return out
}

// Every event of every trace run matches its catalog shape, and every
// catalog event type is written by some trace.
func TestEveryWrittenEventMatchesCatalog(t *testing.T) {
	seen := map[string]int{}
	for _, file := range traceFiles(t) {
		tr, err := trace.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		run := trace.Execute(tr, reference.NewPort(reference.Options{}))
		if run.Err != nil || run.Failed() {
			t.Fatalf("%s did not run cleanly: %v", file, run.Err)
		}
		outside := outsideEvents(run)
		for _, l := range run.Logs {
			for _, e := range l.Events {
				if outside[l.Agent][e.Seq] {
					continue // another writer's event, malformed on purpose or not: input, not a write of the runtime's
				}
				seen[e.Type]++
				if err := ValidateEvent(e.Type, e.Data); err != nil {
					t.Errorf("%s, agent %s, seq %d: %v", file, l.Agent, e.Seq, err)
				}
			}
		}
		for _, c := range tr.Clauses {
			if _, ok := spec.Lookup(c); !ok {
				t.Errorf("%s cites unknown clause %s", file, c)
			}
		}
	}
	for _, e := range Events {
		if seen[e.Type] == 0 {
			t.Errorf("no trace writes %s; extend testdata/every-event.yaml so its shape is checked", e.Type)
		}
	}
}

// A mutant that writes plan/mode with an extra field is caught by the
// catalog's shape, with the field named.
func TestCatalogShapeCatchesExtraField(t *testing.T) {
	tr, err := trace.ReadFile("testdata/every-event.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run := trace.Execute(tr, reference.NewPort(reference.Options{Mutants: reference.Mutants{reference.PlanModeExtraField}}))
	caught := 0
	for _, l := range run.Logs {
		for _, e := range l.Events {
			if err := ValidateEvent(e.Type, e.Data); err != nil {
				if e.Type != "plan/mode" || !strings.Contains(err.Error(), `unexpected field "source"`) {
					t.Errorf("unexpected finding: %v", err)
				}
				caught++
			}
		}
	}
	if caught == 0 {
		t.Fatal("the plan-mode-extra-field mutant's events all passed the catalog shape")
	}
}

func TestValidateEventNamesThePath(t *testing.T) {
	cases := []struct {
		typ, data, want string
	}{
		{"plan/mode", `{}`, `plan/mode: data: missing field "active"`},
		{"plan/mode", `{"active":"yes"}`, "data.active: want a boolean, got a string"},
		{"turn/start", `{"turn":1.5}`, "data.turn: want an integer, got the number 1.5"},
		{"request/header", `{"header":{"system":[{"name":"a","order":1}],"tools":[]},"reason":"initial"}`, `data.header.system[0]: missing field "text"`},
		{"request/header", `{"header":{"system":[],"tools":[]},"reason":"again"}`, `data.reason: "again" is not one of initial, resume, change`},
		{"assistant/message", `{"turn":1,"step":1,"message":{"role":"assistant","content":[{"type":"image"}]}}`, "data.message.content[0]: matches none of 2 alternatives"},
		{"no/such", `{}`, `event type "no/such" is not in the event catalog`},
		{"plan/mode", `{`, "data is not JSON"},
		{"plan/mode", `null`, "want an object, got null"},
	}
	for _, tc := range cases {
		err := ValidateEvent(tc.typ, json.RawMessage(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: got %v, want %q", tc.typ, tc.data, err, tc.want)
		}
	}
	if err := ValidateEvent("plan/mode", json.RawMessage(`{"active":true}`)); err != nil {
		t.Errorf("valid plan/mode rejected: %v", err)
	}
}

func TestServiceFromSource(t *testing.T) {
	svc, err := ServiceFromSource(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(svc.Methods) != 2 || svc.Methods[0].Name != "Get" || svc.Methods[1].Name != "Set" {
		t.Fatalf("methods: %+v", svc.Methods)
	}
	if !strings.HasPrefix(svc.Methods[1].Signature, "func (c *Controller) Set(") {
		t.Errorf("Set signature: %q", svc.Methods[1].Signature)
	}
	if !strings.Contains(svc.Methods[1].Doc, "committed") || strings.Contains(svc.Block(), "{\n") {
		t.Errorf("Set doc or block wrong:\n%s", svc.Block())
	}
	committed, err := GeneratedService()
	if err != nil {
		t.Fatal(err)
	}
	if committed.Block() != svc.Block() {
		t.Errorf("embedded service.json is stale; run go generate ./...")
	}
}

func TestServiceFromSourceErrors(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"no type":    {"package reference\n", "no type Controller"},
		"no method":  {"package reference\ntype Controller struct{}\n// Get gets.\nfunc (c *Controller) Get(agent string) bool { return false }\n", "has no method Set"},
		"no doc":     {"package reference\ntype Controller struct{}\n// Get gets.\nfunc (c *Controller) Get(agent string) bool { return false }\nfunc (c *Controller) Set(agent string, active bool) string { return \"\" }\n", "Controller.Set has no doc comment"},
		"bad syntax": {"package reference\nfunc {", "parsing the service source"},
	}
	for name, tc := range cases {
		_, err := ServiceFromSource(fstest.MapFS{ServiceSource: {Data: []byte(tc.src)}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
	if _, err := ServiceFromSource(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "reading the service source") {
		t.Errorf("missing source: got %v", err)
	}
}

// A doc comment edit in the service source changes exactly the service
// catalog, so the freshness test notices it.
func TestFilesFollowTheServiceSource(t *testing.T) {
	src, err := os.ReadFile("../" + ServiceSource)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "// Set selects whether plan mode should be active", "// Set chooses whether plan mode should be active", 1)
	if edited == string(src) {
		t.Fatal("the Set doc comment moved; update this test")
	}
	before, err := Files(fstest.MapFS{ServiceSource: {Data: src}})
	if err != nil {
		t.Fatal(err)
	}
	after, err := Files(fstest.MapFS{ServiceSource: {Data: []byte(edited)}})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for i := range before {
		if !bytes.Equal(before[i].Content, after[i].Content) {
			changed = append(changed, after[i].Path)
		}
	}
	if want := []string{"catalog/service.md", "catalog/service.json"}; !slices.Equal(changed, want) {
		t.Errorf("changed %v, want %v", changed, want)
	}
}

// Every mutant of the reference breaks a clause the catalog knows.
func TestMutantClausesAreKnown(t *testing.T) {
	for _, m := range reference.Catalogue {
		if _, ok := spec.Lookup(m.Clause); !ok {
			t.Errorf("mutant %s breaks unknown clause %s", m.Name, m.Clause)
		}
	}
}

// The clause IDs are compared with SPEC.md by the recipe of a clause
// (TestEveryClauseHasItsEvidence, cmd/plankit), which fails when SPEC.md
// is not found unless PLANKIT_SPEC=none says so on purpose.
