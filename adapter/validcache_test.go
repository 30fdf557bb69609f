package adapter

import (
	"testing"

	"github.com/plankit/plankit/sim"
)

func TestSplitSeq(t *testing.T) {
	for _, c := range []struct {
		seq  int
		data string
		rest string
		ok   bool
	}{
		{12, `{"seq":12,"result":{}}`, `,"result":{}}`, true},
		{12, `{"seq":12}`, `}`, true},
		{1, `{"seq":12,"result":{}}`, "", false},    // another seq that starts alike
		{12, `{"seq":1,"result":{}}`, "", false},    // a shorter one
		{12, `{"seq":12.0,"result":{}}`, "", false}, // not the same number literal
		{12, `{"seq":12,"result":{},"seq":13}`, "", false},
		{12, `{"result":{},"seq":12}`, "", false}, // seq elsewhere: checked the long way
		{12, `{ "seq":12,"result":{}}`, "", false},
		{12, `{"seq":12`, "", false},
	} {
		rest, ok := splitSeq(c.seq, []byte(c.data))
		if ok != c.ok || string(rest) != c.rest {
			t.Errorf("splitSeq(%d, %s) = %q, %v; want %q, %v", c.seq, c.data, rest, ok, c.rest, c.ok)
		}
	}
}

// A remembered reply is known again under any seq, for its method only;
// the memory stops growing at its bound.
func TestValidReplies(t *testing.T) {
	var v validReplies
	rest, known := v.lookup("get", 3, []byte(`{"seq":3,"result":{"active":true}}`))
	if known {
		t.Fatal("known before it was checked")
	}
	v.add("get", rest)
	if _, known := v.lookup("get", 4, []byte(`{"seq":4,"result":{"active":true}}`)); !known {
		t.Error("a repeated valid reply is not known")
	}
	if _, known := v.lookup("set", 5, []byte(`{"seq":5,"result":{"active":true}}`)); known {
		t.Error("known for another method")
	}
	if _, known := v.lookup("get", 6, []byte(`{"seq":7,"result":{"active":true}}`)); known {
		t.Error("known with the wrong seq")
	}
	v.add("get", nil)
	for i := range maxValidReplies + 10 {
		v.add("fold", []byte(`,"result":{"n":`+string(rune('a'+i%26))+`}`+string(rune(i))))
	}
	if v.size != maxValidReplies {
		t.Errorf("%d replies remembered, the bound is %d", v.size, maxValidReplies)
	}
}

// A get reply remembered as valid keeps its decoded result, and only
// then; each caller gets its own pending flag.
func TestValidGets(t *testing.T) {
	var v validReplies
	data := []byte(`{"seq":3,"result":{"active":true,"pending":false}}`)
	rest, _ := v.lookup(MethodGet, 3, data)
	pending := false
	v.addGet(rest, sim.GetReply{Active: true, Pending: &pending})
	if _, ok := v.get(rest); ok {
		t.Fatal("a result remembered for a reply not known as valid")
	}
	v.add(MethodGet, rest)
	v.addGet(rest, sim.GetReply{Active: true, Pending: &pending})
	g, ok := v.get(rest)
	if !ok || !g.Active || g.Pending == nil || *g.Pending || g.Pending == &pending {
		t.Fatalf("remembered %+v, %v: want active, pending false, a copy of the flag", g, ok)
	}
}
