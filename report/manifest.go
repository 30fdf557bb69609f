package report

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/spec"
)

// Manifest is an expected-failure manifest (docs/expected-failures.md):
// the checks an implementation knowingly fails, each with a reason and
// optionally an issue URL and an expiry date.
type Manifest struct {
	// Path names the file in messages.
	Path    string
	Entries []Entry
	// Assume names the known deviations (reference variants) that
	// lockstep searches assume, from `assume: NAME` lines.
	Assume []Assumption
	// lines are the file's lines as written, so --fix keeps comments.
	lines []string
}

// Entry is one line of a manifest.
type Entry struct {
	Line int
	// Kind is "id" or "clause"; Key is the check ID or clause ID.
	Kind    string
	Key     string
	Issue   string
	Expires string // YYYY-MM-DD or ""
	Reason  string
}

// Assumption is an `assume: NAME [-- REASON]` line: a reference variant
// the implementation is known to follow, which plankit diff assumes.
type Assumption struct {
	Line   int
	Name   string
	Reason string
}

// Target is the entry's target as written: id:KEY or clause:KEY.
func (e Entry) Target() string { return e.Kind + ":" + e.Key }

// ReadManifest reads and parses a manifest file within the default bounds
// (inputlimit.Manifest).
func ReadManifest(path string) (*Manifest, error) {
	return ReadManifestWithLimits(path, inputlimit.Manifest)
}

// ReadManifestWithLimits reads and parses a manifest file within lim; a
// file over lim.Bytes is not read past the bound.
func ReadManifestWithLimits(path string, lim inputlimit.Limits) (*Manifest, error) {
	data, err := inputlimit.ReadFile(path, lim.Bytes)
	if err != nil {
		return nil, fmt.Errorf("expected-failure manifest: %w", err)
	}
	return ParseManifestWithLimits(path, data, lim)
}

// ParseManifest parses a manifest within the default bounds; errors name the
// file and line.
func ParseManifest(path string, data []byte) (*Manifest, error) {
	return ParseManifestWithLimits(path, data, inputlimit.Manifest)
}

// ParseManifestWithLimits parses a manifest within lim (bytes, line length
// and entries); errors name the file and line.
func ParseManifestWithLimits(path string, data []byte, lim inputlimit.Limits) (*Manifest, error) {
	if int64(len(data)) > lim.Bytes {
		return nil, fmt.Errorf("%s:%d: %s", path, bytes.Count(data[:lim.Bytes], []byte("\n"))+1, inputlimit.Exceeded("bytes", lim.Bytes, inputlimit.FlagBytes))
	}
	if line, col, ok := inputlimit.InvalidUTF8(data); !ok {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, inputlimit.UTF8Message)
	}
	m := &Manifest{Path: path}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text != "" {
		m.lines = strings.Split(text, "\n")
	}
	seen := map[string]int{}
	for i, raw := range m.lines {
		n := i + 1
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		if len(raw) > lim.Line {
			return nil, errf("line of %s", inputlimit.Exceeded("bytes", int64(lim.Line), inputlimit.FlagLine))
		}
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(m.Entries) == lim.Records {
			return nil, errf("%s", inputlimit.Exceeded("entries", int64(lim.Records), inputlimit.FlagEntries))
		}
		if rest, ok := strings.CutPrefix(line, "assume:"); ok {
			name, reason, _ := strings.Cut(rest, " -- ")
			name = strings.TrimSpace(name)
			if name == "" || strings.ContainsAny(name, " \t") {
				return nil, errf("want assume: VARIANT-NAME [-- REASON]")
			}
			for _, a := range m.Assume {
				if a.Name == name {
					return nil, errf("assume: %s is already listed on line %d", name, a.Line)
				}
			}
			m.Assume = append(m.Assume, Assumption{Line: n, Name: name, Reason: strings.TrimSpace(reason)})
			continue
		}
		head, reason, ok := strings.Cut(line, " -- ")
		if !ok {
			if strings.HasSuffix(line, " --") || line == "--" {
				return nil, errf("the reason after -- is missing")
			}
			return nil, errf("want TARGET [issue=URL] [expires=YYYY-MM-DD] -- REASON")
		}
		reason = strings.TrimSpace(reason)
		if reason == "" {
			return nil, errf("the reason after -- is missing")
		}
		fields := strings.Fields(head)
		if len(fields) == 0 {
			return nil, errf("the target (id:CHECK-ID or clause:CLAUSE-ID) is missing")
		}
		e := Entry{Line: n, Reason: reason}
		kind, key, _ := strings.Cut(fields[0], ":")
		switch kind {
		case "id":
			if key == "" {
				return nil, errf("target %q names no check", fields[0])
			}
		case "clause":
			if !spec.ClausePattern.MatchString(key) {
				return nil, errf("target %q: a clause ID looks like PEND-5", fields[0])
			}
		default:
			return nil, errf("target %q: want id:CHECK-ID or clause:CLAUSE-ID", fields[0])
		}
		e.Kind, e.Key = kind, key
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, "=")
			if !ok || v == "" {
				return nil, errf("option %q: want key=value", f)
			}
			switch k {
			case "issue":
				if e.Issue != "" {
					return nil, errf("issue given twice")
				}
				e.Issue = v
			case "expires":
				if e.Expires != "" {
					return nil, errf("expires given twice")
				}
				if _, err := time.Parse(time.DateOnly, v); err != nil {
					return nil, errf("expires %q: want a date YYYY-MM-DD", v)
				}
				e.Expires = v
			default:
				return nil, errf("unknown option %q (known: issue, expires)", k)
			}
		}
		if prev, dup := seen[e.Target()]; dup {
			return nil, errf("%s is already listed on line %d", e.Target(), prev)
		}
		seen[e.Target()] = n
		m.Entries = append(m.Entries, e)
	}
	return m, nil
}

// Expired reports whether the entry has expired by today (YYYY-MM-DD):
// expires is the last day it is honoured.
func (e Entry) Expired(today string) bool { return e.Expires != "" && today > e.Expires }

func (m *Manifest) where(e Entry) string { return fmt.Sprintf("%s:%d", m.Path, e.Line) }

// lookup finds the entry covering c: its id entry, else the first clause
// entry (in file order) for one of its clauses.
func (m *Manifest) lookup(c Case) (Entry, bool) {
	for _, e := range m.Entries {
		if e.Kind == "id" && e.Key == c.ID {
			return e, true
		}
	}
	for _, e := range m.Entries {
		if e.Kind == "clause" && slices.Contains(c.Clauses, e.Key) {
			return e, true
		}
	}
	return Entry{}, false
}

// Expects says where the manifest expects c to fail (FILE:LINE), or ""
// when no entry covers it or its entry expired before today. A nil
// manifest expects nothing.
func (m *Manifest) Expects(c Case, today string) string {
	if m == nil {
		return ""
	}
	e, ok := m.lookup(c)
	if !ok || e.Expired(today) {
		return ""
	}
	return m.where(e)
}

// Apply judges the cases of a run against the manifest and returns the
// cases with their final statuses, plus findings: problems of the manifest
// itself that fail the run (unexpected passes of clause entries, expired
// and stale entries). today is YYYY-MM-DD; complete says every check was
// run and judged (not filtered, interrupted or cut short by the
// implementation), so entries that match no check are stale. A clause
// entry none of whose checks fails is an unexpected pass unless some of
// its checks were not judged. A nil manifest
// leaves the cases as they are.
func (m *Manifest) Apply(cases []Case, today string, complete bool) ([]Case, []string) {
	out := slices.Clone(cases)
	if m == nil {
		return out, nil
	}
	var findings []string
	used := map[int]bool{}    // entry line -> matched a failing check
	matched := map[int]bool{} // entry line -> matched any check that ran
	// entry line -> matched a check that was not judged (error, not-run):
	// the entry's failing check may be among them.
	unjudged := map[int]bool{}
	for i, c := range out {
		e, ok := m.lookup(c)
		if !ok {
			continue
		}
		switch {
		case c.Judged():
			matched[e.Line] = true
		case c.Status != Skipped:
			unjudged[e.Line] = true
		}
		switch c.Status {
		case Failed:
			used[e.Line] = true
			if e.Expired(today) {
				out[i].Message = fmt.Sprintf("expected-failure entry %s (%s) expired on %s: %s", m.where(e), e.Target(), e.Expires, c.Message)
				continue
			}
			out[i].Status = ExpectedFailed
			out[i].Message = fmt.Sprintf("%s [expected by %s: %s]", c.Message, m.where(e), e.Reason)
		case Passed:
			if e.Kind == "id" {
				out[i].Status = UnexpectedPass
				out[i].Message = fmt.Sprintf("unexpected pass: remove %s from %s", e.Target(), m.where(e))
			}
		}
	}
	for _, e := range m.Entries {
		switch {
		case e.Expired(today):
			findings = append(findings, fmt.Sprintf("%s: %s expired on %s: fix the implementation or extend the date", m.where(e), e.Target(), e.Expires))
		case !matched[e.Line] && !m.ranAny(e, cases):
			if complete {
				findings = append(findings, fmt.Sprintf("%s: %s matches no check: stale entry, remove it", m.where(e), e.Target()))
			}
		case e.Kind == "clause" && !used[e.Line] && matched[e.Line] && !unjudged[e.Line]:
			findings = append(findings, fmt.Sprintf("%s: %s: unexpected pass, no check of the clause fails: remove it", m.where(e), e.Target()))
		}
	}
	return out, findings
}

// ranAny reports whether some case of the run is targeted by e (even a
// skipped one).
func (m *Manifest) ranAny(e Entry, cases []Case) bool {
	for _, c := range cases {
		if (e.Kind == "id" && c.ID == e.Key) || (e.Kind == "clause" && slices.Contains(c.Clauses, e.Key)) {
			return true
		}
	}
	return false
}

// Fix rewrites the manifest from a complete run's raw results (statuses
// before Apply): entries that cover no failing check are dropped, entries
// covering a failing check are kept as written (expired ones too: a
// deadline is a human decision), and each failing check no entry covers
// gets a new id: entry, appended in ID order. Comments are kept.
func (m *Manifest) Fix(raw []Case) []byte {
	keep := map[int]bool{}
	covered := map[string]bool{}
	for _, c := range raw {
		if c.Status != Failed {
			continue
		}
		if e, ok := m.lookup(c); ok {
			keep[e.Line] = true
			covered[c.ID] = true
		}
	}
	var b bytes.Buffer
	entryAt := map[int]bool{}
	for _, e := range m.Entries {
		entryAt[e.Line] = true
	}
	for i, line := range m.lines {
		if entryAt[i+1] && !keep[i+1] {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	var added []Case
	for _, c := range raw {
		if c.Status == Failed && !covered[c.ID] {
			added = append(added, c)
		}
	}
	sort.SliceStable(added, func(i, j int) bool { return added[i].ID < added[j].ID })
	for _, c := range added {
		// The implementation's message is outside text: its first line,
		// escaped (safetext), so that it cannot add an entry of its own.
		msg, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
		if msg == "" {
			msg = "fails"
		}
		fmt.Fprintf(&b, "id:%s -- failing: %s\n", c.ID, safetext.Line(msg))
	}
	return b.Bytes()
}
