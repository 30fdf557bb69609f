package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/sim"
)

// Verdicts of a run.
const (
	VerdictPass = "pass"
	VerdictFail = "fail"
	// VerdictImpl: the implementation could not be run; the cases say
	// which checks were judged before (and after restarts) and which were
	// not.
	VerdictImpl = "implementation-error"
	// VerdictInterrupted: the run was interrupted by a signal; the cases
	// judged before it are reported, the rest are not-run.
	VerdictInterrupted = "interrupted"
)

// Run is everything a report file says about one run. It holds no time or
// duration, so the same seed gives byte-identical files.
type Run struct {
	Suite          string       `json:"suite"`
	SuiteVersion   string       `json:"suiteVersion"`
	Implementation sim.Identity `json:"implementation"`
	Seed           int64        `json:"seed"`
	// Filter describes a filtered run (--tags, --only); empty when complete.
	Filter string `json:"filter,omitempty"`
	// Assume names the known deviations the run assumed (--assume and
	// the manifest's assume: lines): the properties' model, or the
	// lockstep reference, predicted them instead of SPEC.md.
	Assume   []string `json:"assume,omitempty"`
	Manifest string   `json:"manifest,omitempty"`
	Verdict  string   `json:"verdict"`
	Error    string   `json:"error,omitempty"`
	// Cause is the error behind Error, kept for callers that ask
	// errors.Is of it; it is not part of any report.
	Cause    error       `json:"-"`
	Findings []string    `json:"findings,omitempty"`
	Clauses  []ClauseRow `json:"clauses"`
	Cases    []Case      `json:"cases"`
	// Restarts says how an implementation behind an adapter was restarted
	// within checks; absent for the in-process reference.
	Restarts *Restarts `json:"restarts,omitempty"`
}

// Restarts is the restart policy of a run (--restarts) and how many
// restarts were real (a new process) and how many reset the same process.
type Restarts struct {
	Policy string `json:"policy"`
	Real   int    `json:"real"`
	Reset  int    `json:"reset"`
}

// JSON renders the plankit JSON report.
func JSON(r Run) ([]byte, error) {
	if r.Cases == nil {
		r.Cases = []Case{}
	}
	if r.Clauses == nil {
		r.Clauses = []ClauseRow{}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// JUnit XML, in the shape of the common (Jenkins/Ant) junit.xsd.

// JUnitSuites is the <testsuites> root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one <testsuite>: a feature, or the properties.
type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties *JUnitProps     `xml:"properties,omitempty"`
	Cases      []JUnitTestCase `xml:"testcase"`
}

// JUnitProps holds <property> elements.
type JUnitProps struct {
	Props []JUnitProp `xml:"property"`
}

// JUnitProp is a <property name value>.
type JUnitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitTestCase is one <testcase>.
type JUnitTestCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitFailure `xml:"failure,omitempty"`
	Error     *JUnitFailure `xml:"error,omitempty"`
	Skipped   *JUnitSkipped `xml:"skipped,omitempty"`
}

// JUnitFailure is a <failure> or <error>.
type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitSkipped is a <skipped>.
type JUnitSkipped struct {
	Message string `xml:"message,attr"`
}

// failedText is a failure's message led by the clauses it counts under
// (those of the first failing observation, when known).
func failedText(c Case) string {
	if c.Status == UnexpectedPass {
		return c.Message
	}
	return "clauses " + strings.Join(c.FailedClauses(), " ") + ": " + c.Message
}

// line escapes text that may hold outside text (an implementation's
// messages and identity, file names) for a JUnit field: XML would keep its
// line breaks in element text and turn its controls into U+FFFD.
func line(s string) string { return safetext.Line(s) }

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// JUnit renders the run as JUnit XML: one testsuite per feature (and one
// for the properties), one testcase per check. Expected failures are
// reported as skipped with their reason; unexpected passes as failures;
// checks that could not be judged because the implementation could not
// be run as errors (never failures); checks an interruption left unrun as
// skipped; run-level problems (manifest findings, an implementation
// error, an interruption) as a testcase of a "plankit" suite.
func JUnit(r Run) ([]byte, error) {
	root := JUnitSuites{Name: r.Suite, Time: "0"}
	index := map[string]int{}
	for _, c := range r.Cases {
		suite := c.Feature
		switch {
		case c.Kind == KindLockstep:
			suite = "lockstep"
		case c.Kind == KindProperty || suite == "":
			suite = "properties"
		}
		i, ok := index[suite]
		if !ok {
			i = len(root.Suites)
			index[suite] = i
			root.Suites = append(root.Suites, JUnitSuite{Name: line(suite), Time: "0"})
		}
		tc := JUnitTestCase{Name: line(c.ID), Classname: line(classname(c)), Time: "0"}
		s := &root.Suites[i]
		switch c.Status {
		case Failed, UnexpectedPass:
			tc.Failure = &JUnitFailure{Message: line(firstLine(c.Message)), Type: c.Status, Text: line(failedText(c))}
			s.Failures++
		case Errored:
			tc.Error = &JUnitFailure{Message: line(firstLine(c.Message)), Type: "implementation", Text: line(c.Message)}
			s.Errors++
		case Skipped, NotRun:
			tc.Skipped = &JUnitSkipped{Message: line(c.Message)}
			s.Skipped++
		case ExpectedFailed:
			tc.Skipped = &JUnitSkipped{Message: "expected failure: " + line(failedText(c))}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	if len(r.Findings) > 0 || r.Error != "" {
		s := JUnitSuite{Name: "plankit", Time: "0"}
		for _, f := range r.Findings {
			s.Cases = append(s.Cases, JUnitTestCase{Name: "manifest", Classname: "plankit.manifest", Time: "0",
				Failure: &JUnitFailure{Message: line(firstLine(f)), Type: "manifest", Text: line(f)}})
			s.Tests++
			s.Failures++
		}
		if r.Error != "" {
			kind := "run"
			switch r.Verdict {
			case VerdictImpl:
				kind = "implementation"
			case VerdictInterrupted:
				kind = "interrupted"
			}
			s.Cases = append(s.Cases, JUnitTestCase{Name: kind, Classname: "plankit." + kind, Time: "0",
				Error: &JUnitFailure{Message: line(firstLine(r.Error)), Type: kind, Text: line(r.Error)}})
			s.Tests++
			s.Errors++
		}
		root.Suites = append(root.Suites, s)
	}
	props := &JUnitProps{Props: []JUnitProp{
		{Name: "implementation", Value: line(r.Implementation.Name + " " + r.Implementation.Version)},
		{Name: "suite-version", Value: r.SuiteVersion},
		{Name: "seed", Value: fmt.Sprint(r.Seed)},
	}}
	for i := range root.Suites {
		s := &root.Suites[i]
		s.Properties = props
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
		root.Skipped += s.Skipped
	}
	b, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

func classname(c Case) string {
	switch c.Kind {
	case KindProperty:
		return "properties"
	case KindLockstep:
		return "lockstep"
	}
	u := strings.TrimSuffix(filepath.Base(c.URI), ".feature")
	if u == "" || u == "." {
		u = "features"
	}
	return "features." + u
}

// Cucumber JSON (the format of cucumber's json formatter).

type cukeFeature struct {
	URI         string        `json:"uri"`
	ID          string        `json:"id"`
	Keyword     string        `json:"keyword"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Line        int           `json:"line"`
	Elements    []cukeElement `json:"elements"`
}

type cukeElement struct {
	ID          string     `json:"id"`
	Keyword     string     `json:"keyword"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Line        int        `json:"line"`
	Type        string     `json:"type"`
	Tags        []cukeTag  `json:"tags,omitempty"`
	Steps       []cukeStep `json:"steps"`
}

type cukeTag struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

type cukeStep struct {
	Keyword string     `json:"keyword"`
	Name    string     `json:"name"`
	Line    int        `json:"line"`
	Result  cukeResult `json:"result"`
}

type cukeResult struct {
	Status   string `json:"status"`
	Error    string `json:"error_message,omitempty"`
	Duration int64  `json:"duration"`
}

// propertiesURI names the synthetic feature that carries the properties in
// a cucumber report, one scenario per property.
const propertiesURI = "properties"

// Cucumber renders the run in cucumber's JSON format: the scenarios, then
// the properties as a "Properties" feature whose scenarios each have one
// step, "the property holds", with the property's result. Step results are
// what ran; a check skipped for a choice has its steps skipped. A check
// that was not judged (error, not-run) is never "failed": the step where
// the implementation could not be run, and every step after it, is
// "skipped" with the error as its message; one listed without steps (it
// never started) gets a single skipped step, "the scenario runs", with the
// reason, since cucumber tools count a scenario without steps as passed.
// Durations are 0 so files are reproducible.
func Cucumber(r Run) ([]byte, error) {
	feats := []cukeFeature{}
	index := map[string]int{}
	for _, c := range r.Cases {
		switch c.Kind {
		case KindProperty:
			c.URI, c.Feature, c.Line = propertiesURI, "Properties", 2
			c.Steps = []Step{{Keyword: "Then ", Text: "the property holds", Line: 3, Status: cukeStatus(c.Status), Error: c.Message}}
		case KindLockstep:
			c.URI, c.Feature, c.Line = "lockstep", "Lockstep", 2
			c.Steps = []Step{{Keyword: "Then ", Text: "the implementation and the reference agree", Line: 3, Status: cukeStatus(c.Status), Error: c.Message}}
		case KindScenario:
		default:
			continue
		}
		i, ok := index[c.URI]
		if !ok {
			i = len(feats)
			index[c.URI] = i
			feats = append(feats, cukeFeature{URI: c.URI, ID: slug(c.Feature), Keyword: "Feature", Name: c.Feature, Line: 1})
		}
		el := cukeElement{ID: slug(c.Feature) + ";" + c.ID, Keyword: "Scenario", Name: c.Name, Line: c.Line, Type: "scenario", Steps: []cukeStep{}}
		tags := []string{"@id:" + strings.Split(c.ID, "/")[0]}
		for _, cl := range c.Clauses {
			tags = append(tags, "@"+cl)
		}
		for _, ch := range c.Choices {
			tags = append(tags, "@choice:"+ch)
		}
		if c.Status == Failed || c.Status == ExpectedFailed {
			for _, cl := range c.FailedClauses() {
				tags = append(tags, "@failed:"+cl)
			}
		}
		sort.Strings(tags)
		for _, t := range tags {
			el.Tags = append(el.Tags, cukeTag{Name: t, Line: c.Line - 1})
		}
		steps := c.Steps
		if len(steps) == 0 && c.Kind == KindScenario && !c.Judged() {
			// Cucumber tools count a scenario without steps as passed: one
			// that never ran carries a skipped step with the reason.
			steps = []Step{{Keyword: "Then ", Text: "the scenario runs", Line: c.Line + 1, Status: "skipped"}}
		}
		for i, s := range steps {
			res := cukeResult{Status: s.Status, Error: s.Error}
			if !c.Judged() && c.Kind == KindScenario && res.Status != "passed" {
				res.Status = "skipped"
				if i == firstUnpassed(steps) && res.Error == "" {
					res.Error = c.Message
				}
			}
			el.Steps = append(el.Steps, cukeStep{Keyword: s.Keyword, Name: s.Text, Line: s.Line, Result: res})
		}
		feats[i].Elements = append(feats[i].Elements, el)
	}
	b, err := json.MarshalIndent(feats, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// firstUnpassed is the index of the first step that did not pass.
func firstUnpassed(steps []Step) int {
	for i, s := range steps {
		if s.Status != "passed" {
			return i
		}
	}
	return -1
}

// cukeStatus maps a case status to a cucumber step status.
func cukeStatus(status string) string {
	switch status {
	case Passed:
		return "passed"
	case Skipped, Errored, NotRun:
		return "skipped"
	}
	return "failed"
}

func slug(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), "-"))
}
