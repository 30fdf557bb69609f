package spec

import "testing"

// A command line is split at its first space into the name and the raw
// arguments, and /plan reads the argument without the whitespace around
// it: bare selects plan mode, the exact off inactive, anything else plan
// mode and a steered message.
func TestParseCommand(t *testing.T) {
	for _, c := range []struct {
		input, name, arg string
		plan, active     bool
		message, clause  string
	}{
		{"/plan", "plan", "", true, true, "", "CMD-2"},
		{"/plan   ", "plan", "", true, true, "", "CMD-2"},
		{"/plan off", "plan", "off", true, false, "", "CMD-4"},
		{"/plan  off ", "plan", "off", true, false, "", "CMD-4"},
		{"/plan OFF", "plan", "OFF", true, true, "OFF", "CMD-4"}, // CMD-4: only the exact word is off
		{"/plan off now", "plan", "off now", true, true, "off now", "CMD-3"},
		{"/plan sketch it first", "plan", "sketch it first", true, true, "sketch it first", "CMD-3"},
		{"/plans", "plans", "", false, false, "", "CMD-1"},
		{"/plan\toff", "plan\toff", "", false, false, "", "CMD-1"},
		{" /plan off", "", "/plan off", false, false, "", "CMD-1"},
		{"/help plan", "help", "plan", false, false, "", "CMD-1"},
	} {
		got := ParseCommand(c.input)
		if got.Name != c.name || got.Arg != c.arg {
			t.Errorf("ParseCommand(%q) = %+v, want name %q arg %q", c.input, got, c.name, c.arg)
		}
		if got.IsPlan() != c.plan || got.Active() != c.active || got.Message() != c.message || got.Clause() != c.clause {
			t.Errorf("%q: IsPlan %t Active %t Message %q Clause %s, want %t %t %q %s", c.input, got.IsPlan(), got.Active(), got.Message(), got.Clause(), c.plan, c.active, c.message, c.clause)
		}
	}
	if name, args := SplitCommand("/plan  off "); name != "plan" || args != " off " {
		t.Errorf("SplitCommand trims the raw arguments: %q %q", name, args)
	}
	if got := CommandOf("plan", " off\n"); got != (PlanCommand{Name: "plan", Arg: "off"}) {
		t.Errorf("CommandOf keeps the whitespace around the argument: %+v", got)
	}
}

// A runtime's line names /plan when its first word does, whatever
// whitespace surrounds it.
func TestNamesPlan(t *testing.T) {
	for input, want := range map[string]bool{
		"/plan": true, " /plan think": true, "/plan\toff": true, "/plan off": true,
		"/plans": false, "plan": false, "": false, "/help /plan": false,
	} {
		if got := NamesPlan(input); got != want {
			t.Errorf("NamesPlan(%q) = %t, want %t", input, got, want)
		}
	}
}
