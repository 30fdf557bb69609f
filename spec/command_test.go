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
		message          string
		nearOff          bool
	}{
		{"/plan", "plan", "", true, true, "", false},
		{"/plan   ", "plan", "", true, true, "", false},
		{"/plan off", "plan", "off", true, false, "", false},
		{"/plan  off ", "plan", "off", true, false, "", false},
		{"/plan OFF", "plan", "OFF", true, true, "OFF", true}, // CMD-4: only the exact word is off
		{"/plan off now", "plan", "off now", true, true, "off now", false},
		{"/plan sketch it first", "plan", "sketch it first", true, true, "sketch it first", false},
		{"/plans", "plans", "", false, false, "", false},
		{"/plan\toff", "plan\toff", "", false, false, "", false},
		{" /plan off", "", "/plan off", false, false, "", false},
		{"/help plan", "help", "plan", false, false, "", false},
	} {
		got := ParseCommand(c.input)
		if got.Name != c.name || got.Arg != c.arg {
			t.Errorf("ParseCommand(%q) = %+v, want name %q arg %q", c.input, got, c.name, c.arg)
		}
		if got.IsPlan() != c.plan || got.Active() != c.active || got.Message() != c.message || got.NearOff() != c.nearOff {
			t.Errorf("%q: IsPlan %t Active %t Message %q NearOff %t, want %t %t %q %t", c.input, got.IsPlan(), got.Active(), got.Message(), got.NearOff(), c.plan, c.active, c.message, c.nearOff)
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
