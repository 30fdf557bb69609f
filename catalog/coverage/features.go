package coverage

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/plankit/plankit/spec"
)

// IDTag is the prefix of a scenario's stable ID tag (@id:pend-cancel).
const IDTag = "@id:"

// ChoiceTag is the prefix of a tag naming the silent-point choice a
// scenario depends on (@choice:cancel-pending=clear).
const ChoiceTag = "@choice:"

// ScenariosFromFeatures reads every *.feature file directly in dir of fsys
// and returns one check per scenario (or scenario outline), in file order.
// A scenario's clauses are its clause tags together with those of its
// feature, rule and examples blocks (Gherkin tag inheritance); its ID is
// its @id: tag, empty when it has none (Compute reports that). A file that does not parse is an error naming it.
func ScenariosFromFeatures(fsys fs.FS, dir string) ([]Check, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "*.feature"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var checks []Check
	for _, file := range files {
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		cs, err := ParseFeature(file, src)
		if err != nil {
			return nil, err
		}
		checks = append(checks, cs...)
	}
	return checks, nil
}

// ParseFeature returns the scenario checks of one feature file's source.
func ParseFeature(file string, src []byte) ([]Check, error) {
	n := 0
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(src), func() string { n++; return fmt.Sprint(n) })
	if err != nil {
		return nil, parseError(file, err)
	}
	if doc.Feature == nil {
		return nil, nil
	}
	var checks []Check
	scenario := func(s *messages.Scenario, inherited []*messages.Tag) {
		tags := append(slices.Clone(inherited), s.Tags...)
		for _, ex := range s.Examples {
			tags = append(tags, ex.Tags...)
		}
		where := fmt.Sprintf("%s:%d", file, s.Location.Line)
		c := Check{Name: s.Name, Where: where, Clauses: []string{}}
		for _, t := range tags {
			// A tag shaped like a clause ID is a citation, known or not, so a
			// misspelt one is reported rather than ignored.
			if id, ok := spec.ClauseTag(t.Name); ok && !slices.Contains(c.Clauses, id) {
				c.Clauses = append(c.Clauses, id)
			}
			if id, ok := strings.CutPrefix(t.Name, IDTag); ok && c.ID == "" {
				c.ID = id
			}
			if ch, ok := strings.CutPrefix(t.Name, ChoiceTag); ok && !slices.Contains(c.Choices, ch) {
				c.Choices = append(c.Choices, ch)
			}
		}
		checks = append(checks, c)
	}
	for _, child := range doc.Feature.Children {
		switch {
		case child.Scenario != nil:
			scenario(child.Scenario, doc.Feature.Tags)
		case child.Rule != nil:
			tags := append(slices.Clone(doc.Feature.Tags), child.Rule.Tags...)
			for _, rc := range child.Rule.Children {
				if rc.Scenario != nil {
					scenario(rc.Scenario, tags)
				}
			}
		}
	}
	return checks, nil
}

// gherkinPos is the position prefix of a Gherkin parser message.
var gherkinPos = regexp.MustCompile(`^\((\d+):(\d+)\): `)

// parseError rewrites the Gherkin parser's messages ("(6:3): expected ...")
// as file:line:column: messages, one per line.
func parseError(file string, err error) error {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "Parser errors:" {
			continue
		}
		if m := gherkinPos.FindStringSubmatch(l); m != nil {
			l = fmt.Sprintf("%s:%s:%s: %s", file, m[1], m[2], l[len(m[0]):])
		} else {
			l = file + ": " + l
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return fmt.Errorf("%s: %v", file, err)
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}
