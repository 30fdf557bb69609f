package schemafile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/plankit/plankit/internal/inputlimit"
)

// The bounds on a YAML file (a trace, a runtime trace) are checked in
// three passes, each before the step whose cost it bounds:
//
//  1. the file's size, encoding and control characters, before anything
//     is parsed (CheckText);
//  2. a scan of the text that estimates nesting depth and node count
//     without allocating, before the YAML parser builds its syntax tree
//     (whose size grows with both, and faster than the text);
//  3. the syntax tree's exact depth, node count with every alias expanded,
//     control characters written as escapes, and number of records (a
//     trace's script entries, a runtime trace's steps), before aliases are
//     expanded into values and the records are run (CheckTree).
//
// Parse runs all three around the YAML parser.
//
// The scan over-estimates (it counts every indentation level and
// indicator), so it allows half as much again; the exact pass enforces them.

// The text scan's estimates may exceed the bounds by half.
func slack(n int) int { return n + n/2 }

// scan estimates a YAML text's nesting depth and node count: depth from
// indentation levels, compact "- " entries and flow brackets; nodes from
// entries, keys and flow items. It stops at the first line where an
// estimate exceeds max, returning that line and which bound.
func scan(data []byte, maxDepth, maxNodes int) (line int, what string) {
	var (
		indents    []int // indentation of the open block levels
		flow       int   // open flow collections
		nodes      int
		quote      byte // the open quoted scalar's quote, or 0
		blockAbove = -1 // indentation of a line that opened a block scalar
	)
	for n, raw := range bytes.Split(data, []byte("\n")) {
		ln := n + 1
		indent := 0
		for indent < len(raw) && raw[indent] == ' ' {
			indent++
		}
		rest := raw[indent:]
		if quote == 0 && flow == 0 {
			if blockAbove >= 0 {
				if len(bytes.TrimSpace(rest)) == 0 || indent > blockAbove {
					continue // block scalar content
				}
				blockAbove = -1
			}
			if len(bytes.TrimSpace(rest)) == 0 || rest[0] == '#' {
				continue
			}
			for len(indents) > 0 && indents[len(indents)-1] >= indent {
				indents = indents[:len(indents)-1]
			}
			indents = append(indents, indent)
		}
		depth := len(indents)
		valueStart := true
		for i := 0; i < len(rest); i++ {
			c := rest[i]
			if quote != 0 {
				switch {
				case c == '\\' && quote == '"':
					i++
				case c == quote && quote == '\'' && i+1 < len(rest) && rest[i+1] == '\'':
					i++
				case c == quote:
					quote = 0
					valueStart = false
				}
				continue
			}
			space := c == ' ' || c == '\t' || c == '\r'
			switch {
			case space:
				continue
			case c == '#' && (i == 0 || rest[i-1] == ' ' || rest[i-1] == '\t'):
				i = len(rest)
				continue
			case valueStart && (c == '"' || c == '\''):
				quote = c
				nodes++
			case valueStart && (c == '[' || c == '{'):
				flow++
				nodes++
				if depth+flow > slack(maxDepth) {
					return ln, "depth"
				}
				continue // stays at a value start
			case flow > 0 && (c == ']' || c == '}'):
				flow--
			case flow > 0 && c == ',':
				valueStart = true
				continue
			case c == '-' && (i+1 == len(rest) || rest[i+1] == ' ') && valueStart && flow == 0:
				depth++
				nodes++
				continue
			case c == ':' && (i+1 == len(rest) || rest[i+1] == ' ' || (flow > 0 && (rest[i+1] == ',' || rest[i+1] == ']' || rest[i+1] == '}'))):
				nodes++
				valueStart = true
				if flow == 0 {
					depth++
				}
				continue
			case (c == '|' || c == '>') && valueStart && flow == 0:
				blockAbove = indent
				nodes++
			case valueStart:
				nodes++
			}
			valueStart = false
		}
		if depth+flow > slack(maxDepth) {
			return ln, "depth"
		}
		if nodes > slack(maxNodes) {
			return ln, "nodes"
		}
	}
	return 0, ""
}

// measure walks the syntax tree once: the deepest nesting and the node
// count with every alias expanded (each anchor's size is computed once), and
// the position of the first node past either bound.
type measure struct {
	max     inputlimit.Limits
	nodes   int
	anchors map[string]anchorSize
	over    string
	at      ast.Node
	// control is the control character a string's escape wrote.
	control rune
}

type anchorSize struct{ nodes, height int }

// walk returns the node count of n's subtree and its height in
// collections (a scalar is 0), stopping early (with m.over set) once a bound
// is passed. depth is the number of collections around n.
func (m *measure) walk(n ast.Node, depth int) (nodes, height int) {
	if n == nil || m.over != "" {
		return 0, 0
	}
	add := func(c ast.Node, d int) {
		cn, ch := m.walk(c, d)
		nodes += cn
		height = max(height, ch)
	}
	var children []ast.Node
	switch x := n.(type) {
	case *ast.DocumentNode:
		add(x.Body, depth)
		return nodes, height
	case *ast.MappingValueNode:
		add(x.Key, depth)
		add(x.Value, depth)
		return nodes, height
	case *ast.MappingKeyNode:
		add(x.Value, depth)
		return nodes, height
	case *ast.TagNode:
		add(x.Value, depth)
		return nodes, height
	case *ast.AnchorNode:
		add(x.Value, depth)
		if x.Name != nil {
			m.anchors[x.Name.String()] = anchorSize{nodes: nodes, height: height}
		}
		return nodes, height
	case *ast.AliasNode:
		a := m.anchors[x.Value.String()]
		m.nodes += a.nodes
		if m.nodes > m.max.Nodes {
			m.over, m.at = "nodes", n
		} else if depth+a.height > m.max.Depth {
			m.over, m.at = "depth", n
		}
		return a.nodes, a.height
	case *ast.MappingNode:
		for _, v := range x.Values {
			children = append(children, v)
		}
	case *ast.SequenceNode:
		children = x.Values
	case *ast.StringNode:
		m.count(n)
		if i := strings.IndexFunc(x.Value, isControl); i >= 0 && m.over == "" {
			r, _ := utf8.DecodeRuneInString(x.Value[i:])
			m.over, m.at, m.control = "control", n, r
		}
		return 1, 0
	default:
		m.count(n)
		return 1, 0
	}
	if depth+1 > m.max.Depth {
		m.over, m.at = "depth", n
		return 0, 0
	}
	m.count(n)
	for _, c := range children {
		add(c, depth+1)
	}
	return nodes + 1, height + 1
}

// count counts one node.
func (m *measure) count(n ast.Node) {
	m.nodes++
	if m.nodes > m.max.Nodes && m.over == "" {
		m.over, m.at = "nodes", n
	}
}

// Records names a file format's list of records: the top-level key whose
// sequence Limits.Records bounds, and what its entries are called in the
// error.
type Records struct {
	Key, What string
}

// Parse checks data against lim (CheckText), parses it as YAML and checks
// the syntax tree (CheckTree). Every error is an *Error at the file, line
// and column it concerns.
func Parse(file string, data []byte, lim inputlimit.Limits, recs Records) (*ast.File, error) {
	if err := CheckText(file, data, lim); err != nil {
		return nil, err
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, Syntax(file, err)
	}
	if err := CheckTree(file, f, lim, recs); err != nil {
		return nil, err
	}
	return f, nil
}

// ReadFile reads at most lim.Bytes of path; a longer file is an *Error at
// the line the bound was reached on, and is never read further.
func ReadFile(path string, lim inputlimit.Limits) ([]byte, error) {
	data, err := inputlimit.ReadFile(path, lim.Bytes)
	if err != nil {
		var tl *inputlimit.TooLargeError
		if errors.As(err, &tl) {
			return nil, &Error{File: path, Line: tl.Line, Msg: inputlimit.Exceeded("bytes", tl.Limit, inputlimit.FlagBytes)}
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return data, nil
}

// CheckText checks a YAML file's text before it is parsed: its size, that
// it is UTF-8 without control characters, and the scan's estimates of its
// nesting and node count.
func CheckText(file string, data []byte, lim inputlimit.Limits) error {
	if lim.Bytes > 0 && int64(len(data)) > lim.Bytes {
		return &Error{File: file, Line: bytes.Count(data[:lim.Bytes], []byte("\n")) + 1, Msg: inputlimit.Exceeded("bytes", lim.Bytes, inputlimit.FlagBytes)}
	}
	if line, col, ok := inputlimit.InvalidUTF8(data); !ok {
		return &Error{File: file, Line: line, Column: col, Msg: inputlimit.UTF8Message}
	}
	if line, col, r, ok := controlChar(data); !ok {
		return &Error{File: file, Line: line, Column: col, Msg: ControlMessage(r)}
	}
	if line, what := scan(data, lim.Depth, lim.Nodes); line > 0 {
		if what == "depth" {
			return &Error{File: file, Line: line, Msg: inputlimit.Exceeded("levels of nesting", int64(lim.Depth), inputlimit.FlagDepth)}
		}
		return &Error{File: file, Line: line, Msg: inputlimit.Exceeded("YAML nodes", int64(lim.Nodes), inputlimit.FlagNodes)}
	}
	return nil
}

// ControlMessage is the message for a control character in a file.
func ControlMessage(r rune) string {
	return fmt.Sprintf("control character %U (text may hold only tab, line feed and carriage return among the control characters)", r)
}

// isControl: a control character other than tab, line feed and carriage
// return (C0, DEL and C1).
func isControl(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

// controlChar returns the line and column (1-based, in bytes) of the first
// control character of data (valid UTF-8), or ok true when it has none.
func controlChar(data []byte) (line, col int, r rune, ok bool) {
	line, start := 1, 0
	for i := 0; i < len(data); {
		c, n := utf8.DecodeRune(data[i:])
		if isControl(c) {
			return line, i - start + 1, c, false
		}
		if c == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return 0, 0, 0, true
}

// CheckTree enforces the exact bounds on a parsed file: nesting, nodes
// with aliases expanded, no control character written as an escape in a
// string, and the number of records.
func CheckTree(file string, f *ast.File, lim inputlimit.Limits, recs Records) error {
	if len(f.Docs) == 0 {
		return nil
	}
	m := &measure{max: lim, anchors: map[string]anchorSize{}}
	m.walk(f.Docs[0], 0)
	if m.over != "" {
		line, col := TokenPos(m.at.GetToken())
		switch m.over {
		case "depth":
			return &Error{File: file, Line: line, Column: col, Msg: inputlimit.Exceeded("levels of nesting", int64(lim.Depth), inputlimit.FlagDepth)}
		case "control":
			return &Error{File: file, Line: line, Column: col, Msg: ControlMessage(m.control)}
		default:
			return &Error{File: file, Line: line, Column: col, Msg: inputlimit.Exceeded("YAML nodes, counting what aliases expand to", int64(lim.Nodes), inputlimit.FlagNodes)}
		}
	}
	if recs.Key == "" || lim.Records <= 0 {
		return nil
	}
	if s := recordsNode(f.Docs[0].Body, recs.Key); s != nil && len(s.Values) > lim.Records {
		line, col := StartPos(s.Values[lim.Records])
		return &Error{File: file, Line: line, Column: col, Field: recs.Key, Msg: inputlimit.Exceeded(recs.What, int64(lim.Records), inputlimit.FlagActions)}
	}
	return nil
}

// recordsNode is the sequence under key, through an anchor or alias if
// need be.
func recordsNode(body ast.Node, key string) *ast.SequenceNode {
	mv := Entry(body, key)
	if mv == nil {
		return nil
	}
	v := mv.Value
	for {
		switch x := v.(type) {
		case *ast.AnchorNode:
			v = x.Value
			continue
		case *ast.TagNode:
			v = x.Value
			continue
		case *ast.AliasNode:
			v = findAnchor(body, x.Value.String())
			if v == nil {
				return nil
			}
			continue
		case *ast.SequenceNode:
			return x
		}
		return nil
	}
}

// Entry finds the key/value pair named key in a mapping (nil if it has
// none): how the YAML formats find a field's position.
func Entry(n ast.Node, key string) *ast.MappingValueNode {
	var values []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	}
	for _, mv := range values {
		if mv.Key != nil && strings.Trim(mv.Key.String(), `"'`) == key {
			return mv
		}
	}
	return nil
}

// StartPos is where a node's text begins: a mapping starts at its first
// key.
func StartPos(n ast.Node) (line, col int) {
	switch m := n.(type) {
	case *ast.MappingNode:
		if len(m.Values) > 0 && m.Values[0].Key != nil && !m.IsFlowStyle {
			return TokenPos(m.Values[0].Key.GetToken())
		}
	case *ast.MappingValueNode:
		if m.Key != nil {
			return TokenPos(m.Key.GetToken())
		}
	}
	return TokenPos(n.GetToken())
}

// TokenPos is where a token begins; 0, 0 when it has no position.
func TokenPos(tk *token.Token) (line, col int) {
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// findAnchor returns the value of the anchor named name.
func findAnchor(root ast.Node, name string) ast.Node {
	var found ast.Node
	ast.Walk(visitFunc(func(n ast.Node) bool {
		if a, ok := n.(*ast.AnchorNode); ok && a.Name != nil && a.Name.String() == name {
			found = a.Value
		}
		return found == nil
	}), root)
	return found
}

type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if f(n) {
		return f
	}
	return nil
}

// ToJSON is a parsed file's first document as JSON, its mappings' keys in
// the file's order, aliases expanded (after CheckTree has bounded what they
// expand to). Strings are re-encoded by encoding/json, so any escape YAML
// allows reads as the character it stands for.
func ToJSON(file string, f *ast.File) ([]byte, error) {
	var v any
	if len(f.Docs) > 0 && f.Docs[0].Body != nil {
		if err := yaml.NodeToValue(f.Docs[0].Body, &v, yaml.UseOrderedMap()); err != nil {
			return nil, Syntax(file, err)
		}
	}
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case yaml.MapSlice:
		b.WriteByte('{')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, err := json.Marshal(fmt.Sprint(item.Key))
			if err != nil {
				return err
			}
			b.Write(k)
			b.WriteByte(':')
			if err := writeJSON(b, item.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, item); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(out)
	return nil
}

// Position is where the field at loc (keys and sequence indexes from the
// document's root) is written in f: its value's first token, or with key
// its key's (for an unknown field, the key is what is wrong). A loc that
// runs past the document gives the position of the deepest node found.
// Both YAML formats' errors are placed by it.
func Position(f *ast.File, loc []string, key bool) (line, col int) {
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return 0, 0
	}
	node := f.Docs[0].Body
	line, col = StartPos(node)
	for i, p := range loc {
		last := i == len(loc)-1
		switch n := node.(type) {
		case *ast.SequenceNode:
			idx, err := strconv.Atoi(p)
			if err != nil || idx < 0 || idx >= len(n.Values) {
				return line, col
			}
			node = n.Values[idx]
			line, col = StartPos(node)
		case *ast.MappingNode, *ast.MappingValueNode:
			mv := Entry(n, p)
			if mv == nil {
				return line, col
			}
			node = mv.Value
			line, col = TokenPos(mv.Value.GetToken())
			if last && key {
				line, col = TokenPos(mv.Key.GetToken())
			}
		default:
			return line, col
		}
	}
	return line, col
}
