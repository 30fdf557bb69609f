package safetexttest

import "testing"

// The checks see each thing they look for, so a clean scan means
// something, and escaped text is clean.
func TestProblemsFindsEveryKind(t *testing.T) {
	for _, bad := range []string{
		"ok\n::error::x", "ok\n   ::warning::x", "a \u202e b", "a \u2066 b", "zero\u200bwidth", "esc \x1b[31m", "cr \r here",
		"nbsp\u00a0", "bad \xff", "x ##vso[task.setvariable]y", "x ##[error]y", "ls \u2028",
	} {
		if len(Problems("t", []byte(bad))) == 0 {
			t.Errorf("%q: no problem found", bad)
		}
	}
	if p := Problems("t", []byte("plankit: \"::error::x\\n::y\" \\u202e tab\there\n  fine: a::b\n")); len(p) > 0 {
		t.Errorf("escaped text reported: %v", p)
	}
	for _, bad := range []string{"a\nb", "a\rb", "a\u202eb", "\xff", "\x00"} {
		if OneLine(bad) == "" {
			t.Errorf("OneLine(%q): nothing found", bad)
		}
	}
	if why := OneLine(`plankit: a\nb \u202e "q"`); why != "" {
		t.Errorf("escaped error reported: %s", why)
	}
}
