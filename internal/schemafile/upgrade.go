package schemafile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/plankit/plankit/internal/inputlimit"
)

// Upgrade is one change a file format made to how a file is written, which
// ApplyUpgrades makes to a file written before it: in every mapping that is
// the value of a key Parent (Parent empty: the document's top mapping), the
// entries whose keys are in Old become one entry New. With one Old key and
// no Value it is a rename: the entry keeps its value as written. Otherwise
// Value builds New's value, as YAML flow text, from the old entries' values
// (scalars, by key, as their text); the old entries must be scalars, each
// on its own line in a block mapping.
type Upgrade struct {
	Parent string
	Old    []string
	New    string
	Value  func(old map[string]string) (string, error)
}

// ApplyUpgrades makes the upgrades to data, a YAML file of a format whose
// later versions made them, and says whether any applied. Only the entries
// an upgrade names change: the rest of the file keeps its text byte for
// byte (layout, comments, flow or block style). The file is checked
// within lim first, as Parse does; an entry an upgrade cannot rewrite is
// an *Error at its key.
func ApplyUpgrades(file string, data []byte, lim inputlimit.Limits, ups []Upgrade) ([]byte, bool, error) {
	if err := CheckText(file, data, lim); err != nil {
		return nil, false, err
	}
	f, err := parser.ParseBytes(data, parser.ParseComments)
	if err != nil {
		return nil, false, Syntax(file, err)
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return data, false, nil
	}
	u := &upgrader{file: file, src: data, lines: lineStarts(data), ups: ups}
	u.walk(f.Docs[0].Body, "", true)
	if u.err != nil {
		return nil, false, u.err
	}
	if len(u.edits) == 0 {
		return data, false, nil
	}
	return u.apply(), true, nil
}

// upgrader collects the edits the upgrades make to a file.
type upgrader struct {
	file  string
	src   []byte
	lines []int
	ups   []Upgrade
	edits []edit
	err   error
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// walk visits n, the value of the key parent (top: the document's body).
func (u *upgrader) walk(n ast.Node, parent string, top bool) {
	if u.err != nil || n == nil {
		return
	}
	switch m := n.(type) {
	case *ast.DocumentNode:
		u.walk(m.Body, parent, top)
	case *ast.TagNode:
		u.walk(m.Value, parent, top)
	case *ast.AnchorNode:
		u.walk(m.Value, parent, top)
	case *ast.SequenceNode:
		for _, v := range m.Values {
			u.walk(v, "", false)
		}
	case *ast.MappingNode:
		u.mapping(m.Values, m.IsFlowStyle, parent, top)
	case *ast.MappingValueNode:
		u.mapping([]*ast.MappingValueNode{m}, false, parent, top)
	}
}

// mapping applies the upgrades to one mapping's entries, then visits its
// values.
func (u *upgrader) mapping(entries []*ast.MappingValueNode, flow bool, parent string, top bool) {
	for _, up := range u.ups {
		if up.Parent == parent && (parent != "" || top) {
			u.upgrade(up, entries, flow)
		}
	}
	for _, mv := range entries {
		if mv.Key == nil {
			continue
		}
		u.walk(mv.Value, keyName(mv), false)
	}
}

func keyName(mv *ast.MappingValueNode) string {
	return strings.Trim(mv.Key.String(), `"'`)
}

// upgrade makes one upgrade to a mapping's entries.
func (u *upgrader) upgrade(up Upgrade, entries []*ast.MappingValueNode, flow bool) {
	var olds []*ast.MappingValueNode
	for _, mv := range entries {
		if mv.Key != nil && slices.Contains(up.Old, keyName(mv)) {
			olds = append(olds, mv)
		}
	}
	if len(olds) == 0 {
		return
	}
	if len(up.Old) == 1 && up.Value == nil {
		start := u.offset(olds[0].Key.GetToken())
		u.edits = append(u.edits, edit{start, start + u.keyLen(start), up.New})
		return
	}
	values := map[string]string{}
	spans := make([][2]int, len(olds))
	for i, mv := range olds {
		start := u.offset(mv.Key.GetToken())
		text, end, ok := u.scalar(mv.Value)
		if !ok {
			u.fail(mv, "cannot be upgraded: its value is not a plain scalar; write it as %s by hand", up.New)
			return
		}
		values[keyName(mv)] = text
		spans[i] = [2]int{start, end}
	}
	value, err := up.Value(values)
	if err != nil {
		u.fail(olds[0], "cannot be upgraded: %v", err)
		return
	}
	u.edits = append(u.edits, edit{spans[0][0], spans[0][1], up.New + ": " + value})
	for i, mv := range olds[1:] {
		start, end := spans[i+1][0], spans[i+1][1]
		if flow {
			// Remove ", key: value" back to the comma before it.
			j := bytes.LastIndexByte(u.src[:start], ',')
			if j < spans[i][1] {
				u.fail(mv, "cannot be upgraded: no comma before it")
				return
			}
			u.edits = append(u.edits, edit{j, end, ""})
			continue
		}
		// Remove the entry's whole line, which it must have to itself.
		ls, le := u.lineOf(start)
		if strings.TrimSpace(string(u.src[ls:start])) != "" || !onlyComment(u.src[end:le]) {
			u.fail(mv, "cannot be upgraded: it does not have its line to itself; write it as %s by hand", up.New)
			return
		}
		u.edits = append(u.edits, edit{ls, le, ""})
	}
}

// onlyComment reports whether b, the rest of a line, is blank or a comment.
func onlyComment(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return s == "" || strings.HasPrefix(s, "#")
}

// scalar is the text of a scalar value as written (quotes removed) and
// where it ends in the source.
func (u *upgrader) scalar(n ast.Node) (string, int, bool) {
	switch n.(type) {
	case *ast.BoolNode, *ast.IntegerNode, *ast.FloatNode, *ast.StringNode, *ast.NullNode:
	default:
		return "", 0, false
	}
	start := u.offset(n.GetToken())
	if start >= len(u.src) {
		return "", 0, false
	}
	if q := u.src[start]; q == '"' || q == '\'' {
		end := bytes.IndexByte(u.src[start+1:], q)
		if end < 0 {
			return "", 0, false
		}
		return string(u.src[start+1 : start+1+end]), start + end + 2, true
	}
	end := start
	for end < len(u.src) && !strings.ContainsRune(",}]\n#", rune(u.src[end])) {
		end++
	}
	text := strings.TrimRight(string(u.src[start:end]), " \t\r")
	return text, start + len(text), true
}

// keyLen is the length of the key written at start, quotes included.
func (u *upgrader) keyLen(start int) int {
	if q := u.src[start]; q == '"' || q == '\'' {
		if end := bytes.IndexByte(u.src[start+1:], q); end >= 0 {
			return end + 2
		}
	}
	end := start
	for end < len(u.src) && u.src[end] != ':' && u.src[end] != ' ' {
		end++
	}
	return end - start
}

// fail records the first entry the upgrades cannot rewrite.
func (u *upgrader) fail(mv *ast.MappingValueNode, format string, args ...any) {
	if u.err != nil {
		return
	}
	line, col := TokenPos(mv.Key.GetToken())
	u.err = &Error{File: u.file, Line: line, Column: col, Field: keyName(mv), Msg: fmt.Sprintf(format, args...)}
}

// lineStarts lists where each line of src starts.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset is the byte offset of a token's position (its line and its
// column, counted in characters from 1).
func (u *upgrader) offset(tk *token.Token) int {
	line, col := TokenPos(tk)
	if line < 1 || line > len(u.lines) {
		return len(u.src)
	}
	off := u.lines[line-1]
	for c := 1; c < col && off < len(u.src) && u.src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(u.src[off:])
		off += size
	}
	return off
}

// lineOf is the line around offset off: its start and the start of the
// next (its newline included).
func (u *upgrader) lineOf(off int) (int, int) {
	i, _ := slices.BinarySearch(u.lines, off+1)
	start := u.lines[i-1]
	if i < len(u.lines) {
		return start, u.lines[i]
	}
	return start, len(u.src)
}

// apply makes the edits, which do not overlap, in order.
func (u *upgrader) apply() []byte {
	slices.SortFunc(u.edits, func(a, b edit) int { return a.start - b.start })
	var out bytes.Buffer
	at := 0
	for _, e := range u.edits {
		out.Write(u.src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(u.src[at:])
	return out.Bytes()
}

// RenamedOf lists the renamed keys of upgrades, for a schema's errors
// (WithRenamed): a rename's new key, and for an upgrade that gathers
// several keys into one, that key.
func RenamedOf(ups []Upgrade) []Renamed {
	var out []Renamed
	for _, up := range ups {
		for _, old := range up.Old {
			out = append(out, Renamed{Parent: up.Parent, Old: old, New: up.New})
		}
	}
	return out
}

// UpgradeFormat makes the upgrades to data, a file of a format whose
// current version is current, and sets a top-level format: it declares to
// current. It returns the upgraded file and the format data was written
// in: the one it declares, else 1 when an upgrade applied, else current
// (data is then returned unchanged). A declared format later than current
// is an *Error at the format key.
func UpgradeFormat(file string, data []byte, lim inputlimit.Limits, current int, ups []Upgrade) ([]byte, int, error) {
	declared, line, col, err := DeclaredFormat(file, data, lim)
	if err != nil {
		return nil, 0, err
	}
	if declared > current {
		return nil, declared, &Error{File: file, Line: line, Column: col, Field: "format", Msg: fmt.Sprintf("format %d: written for a later plankit, which reads format %d and up to it (this one reads up to %d)", declared, declared, current)}
	}
	if declared > 0 && declared < current {
		ups = append(slices.Clone(ups), Upgrade{Old: []string{"format"}, New: "format", Value: func(map[string]string) (string, error) { return fmt.Sprint(current), nil }})
	}
	out, changed, err := ApplyUpgrades(file, data, lim, ups)
	switch {
	case err != nil:
		return nil, 0, err
	case declared > 0:
		return out, declared, nil
	case changed:
		return out, 1, nil
	}
	return data, current, nil
}

// DeclaredFormat is the format a YAML file declares at its top level
// (format: N), where, and 0 when it declares none.
func DeclaredFormat(file string, data []byte, lim inputlimit.Limits) (format, line, col int, err error) {
	if err := CheckText(file, data, lim); err != nil {
		return 0, 0, 0, err
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return 0, 0, 0, Syntax(file, err)
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return 0, 0, 0, nil
	}
	mv := Entry(f.Docs[0].Body, "format")
	if mv == nil {
		return 0, 0, 0, nil
	}
	line, col = TokenPos(mv.Value.GetToken())
	n, ok := mv.Value.(*ast.IntegerNode)
	v, isInt := 0, false
	if ok {
		switch x := n.Value.(type) {
		case int64:
			v, isInt = int(x), true
		case uint64:
			v, isInt = int(x), true
		}
	}
	if !isInt || v < 1 {
		return 0, line, col, &Error{File: file, Line: line, Column: col, Field: "format", Msg: fmt.Sprintf("format %s: want a format number (1 or more)", mv.Value)}
	}
	return v, line, col, nil
}

// UpgradeHint is what the errors for a file of an earlier format say.
const UpgradeHint = "plankit fmt --fix FILE upgrades a file of an earlier format"

// FormatProblem is what is wrong with a file of a format (what names it)
// that declares format declared, when this plankit reads current: a later
// format, or an earlier one that must be upgraded first; "" when nothing
// is (declared 0 or current).
func FormatProblem(what string, declared, current int) string {
	switch {
	case declared > current:
		return fmt.Sprintf("%s format %d: written for a later plankit (this one reads format %d; plankit version says which it is)", what, declared, current)
	case declared > 0 && declared < current:
		return fmt.Sprintf("%s format %d: an earlier format; plankit fmt --fix FILE rewrites the file as format %d", what, declared, current)
	}
	return ""
}
