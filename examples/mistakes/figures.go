package mistakes

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plankit/plankit/report"
)

// FiguresFile is the corpus's measured attribution, relative to the module
// root: written by the corpus test (go test ./examples/mistakes -update),
// which fails while it differs from what the runs measure.
const FiguresFile = "examples/mistakes/attribution.json"

//go:embed attribution.json
var figures []byte

// Figure is what one row's check at one level measured.
type Figure struct {
	Impl  string `json:"impl"`
	Level string `json:"level"`
	Name  string `json:"name"`
	// Failed is the number of failing checks.
	Failed int `json:"failed"`
	// Attributed is how many of them are attributed to one of the row's
	// clauses (report.Case.FailedClauses: the clauses of the first
	// departure, the governing one first; the clauses of the first failing
	// observation where no departure was found).
	Attributed int `json:"attributed"`
	// First is how many name one of the row's clauses first.
	First int `json:"first"`
}

// Figures are the measured rows, in the table's order, level by level.
type Figures struct {
	Rows []Figure `json:"rows"`
}

// Measure counts rep's failing checks for m at level.
func Measure(m Mistake, level string, rep report.Run) Figure {
	f := Figure{Impl: m.Impl, Level: level, Name: m.Name}
	for _, c := range rep.Cases {
		if !c.Failing() {
			continue
		}
		f.Failed++
		named := c.FailedClauses()
		if slices.ContainsFunc(named, func(c string) bool { return slices.Contains(m.Clauses, c) }) {
			f.Attributed++
		}
		if len(named) > 0 && slices.Contains(m.Clauses, named[0]) {
			f.First++
		}
	}
	return f
}

// Totals sums the rows.
func (fs Figures) Totals() (total Figure) {
	for _, f := range fs.Rows {
		total.Failed += f.Failed
		total.Attributed += f.Attributed
		total.First += f.First
	}
	return total
}

// Percent is part of whole in percent, one decimal, rounded down (0 of 0
// is 100%: nothing failed, nothing misnamed).
func Percent(part, whole int) string {
	if whole == 0 {
		return "100.0%"
	}
	tenths := part * 1000 / whole
	return fmt.Sprintf("%d.%d%%", tenths/10, tenths%10)
}

// Marshal renders the figures as FiguresFile holds them: one row per line.
func (fs Figures) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString("{\"rows\": [\n")
	for i, f := range fs.Rows {
		line, _ := json.Marshal(f)
		b.WriteString("  ")
		b.Write(line)
		if i < len(fs.Rows)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// ReadFigures reads FiguresFile as embedded, no unknown field.
func ReadFigures() (Figures, error) {
	var fs Figures
	dec := json.NewDecoder(bytes.NewReader(figures))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fs); err != nil {
		return Figures{}, fmt.Errorf("%s: %v", FiguresFile, err)
	}
	return fs, nil
}
