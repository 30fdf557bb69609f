package adapter

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/plankit/plankit/sim"
)

// validReplies remembers the replies that passed the schema check, so a
// reply seen before is decoded once (into its destination) instead of
// parsed generically, validated and decoded. Implementations answer the
// same way again and again (get, pre-step, assemble), so most replies of
// a check are repeats.
//
// A reply is remembered by its method and its bytes after the seq, when
// it starts {"seq":N (the shape every known implementation writes) and
// names no other seq; the seq itself is checked on every reply. The
// schema check is a function of those bytes alone, so a remembered reply
// passes it again: skipping it changes no verdict. The memory is bounded;
// past the bound replies are checked as before.
type validReplies struct {
	mu       sync.Mutex
	byMethod map[string]map[string]struct{}
	size     int
	// gets are the results of remembered get replies, decoded: the most
	// frequent request is answered from a handful of replies.
	gets map[string]sim.GetReply
}

// Bounds of the memory of valid replies.
const (
	maxValidReplies   = 4096
	maxValidReplySize = 1024
)

var seqPrefix = []byte(`{"seq":`)

// split returns the reply's bytes after its seq number when the reply
// starts with that seq (as the request's), and whether it does.
func splitSeq(seq int, data []byte) (rest []byte, ok bool) {
	if !bytes.HasPrefix(data, seqPrefix) {
		return nil, false
	}
	var digits [20]byte
	n := strconv.AppendInt(digits[:0], int64(seq), 10)
	after := data[len(seqPrefix):]
	if !bytes.HasPrefix(after, n) {
		return nil, false
	}
	rest = after[len(n):]
	if len(rest) == 0 || (rest[0] != ',' && rest[0] != '}') || bytes.Contains(rest, []byte(`"seq"`)) {
		return nil, false
	}
	return rest, true
}

// lookup reports whether the reply is one remembered as valid for method
// (then its seq is the request's), and returns its remembering key.
func (v *validReplies) lookup(method string, seq int, data []byte) (rest []byte, known bool) {
	rest, ok := splitSeq(seq, data)
	if !ok || len(rest) > maxValidReplySize {
		return nil, false
	}
	v.mu.Lock()
	_, known = v.byMethod[method][string(rest)]
	v.mu.Unlock()
	return rest, known
}

// add remembers a reply that passed the check (rest from lookup; nil
// remembers nothing).
func (v *validReplies) add(method string, rest []byte) {
	if rest == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.size >= maxValidReplies {
		return
	}
	if v.byMethod == nil {
		v.byMethod = map[string]map[string]struct{}{}
	}
	m := v.byMethod[method]
	if m == nil {
		m = map[string]struct{}{}
		v.byMethod[method] = m
	}
	if _, dup := m[string(rest)]; !dup {
		m[string(rest)] = struct{}{}
		v.size++
	}
}

// get returns the decoded result of a remembered get reply (rest from a
// lookup that found it).
func (v *validReplies) get(rest []byte) (sim.GetReply, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	g, ok := v.gets[string(rest)]
	return g, ok
}

// addGet remembers the decoded result of a get reply remembered as valid.
func (v *validReplies) addGet(rest []byte, g sim.GetReply) {
	if rest == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, valid := v.byMethod[MethodGet][string(rest)]; !valid {
		return
	}
	if v.gets == nil {
		v.gets = map[string]sim.GetReply{}
	}
	if g.Pending != nil {
		g.Pending = new(*g.Pending)
	}
	v.gets[string(rest)] = g
}
