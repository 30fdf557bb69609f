package trace

import (
	"bytes"

	"github.com/goccy/go-yaml/ast"
	"github.com/plankit/plankit/internal/inputlimit"
)

// The bounds on a trace are checked in three passes, each before the step
// whose cost it bounds:
//
//  1. the file's size and encoding, before anything is parsed;
//  2. a scan of the text that estimates nesting depth and node count
//     without allocating, before the YAML parser builds its syntax tree
//     (whose size grows with both, and faster than the text);
//  3. the syntax tree's exact depth, node count with every alias expanded,
//     and number of script entries, before aliases are expanded into
//     values and the script is run.
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

// checkTree enforces the exact bounds on a parsed file.
func checkTree(file string, f *ast.File, lim inputlimit.Limits) error {
	if len(f.Docs) == 0 {
		return nil
	}
	m := &measure{max: lim, anchors: map[string]anchorSize{}}
	m.walk(f.Docs[0], 0)
	if m.over != "" {
		pos := tokenPos(m.at.GetToken())
		switch m.over {
		case "depth":
			return &Error{File: file, Line: pos.Line, Column: pos.Column, Msg: inputlimit.Exceeded("levels of nesting", int64(lim.Depth), inputlimit.FlagDepth)}
		default:
			return &Error{File: file, Line: pos.Line, Column: pos.Column, Msg: inputlimit.Exceeded("YAML nodes, counting what aliases expand to", int64(lim.Nodes), inputlimit.FlagNodes)}
		}
	}
	if s := scriptNode(f.Docs[0].Body, m); s != nil && len(s.Values) > lim.Records {
		pos := start(s.Values[lim.Records])
		return &Error{File: file, Line: pos.Line, Column: pos.Column, Field: "script", Msg: inputlimit.Exceeded("actions", int64(lim.Records), inputlimit.FlagActions)}
	}
	return nil
}

// scriptNode is the script sequence, through an anchor or alias if need be.
func scriptNode(body ast.Node, m *measure) *ast.SequenceNode {
	mv := entry(body, "script")
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
