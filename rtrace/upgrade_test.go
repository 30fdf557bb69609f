package rtrace

import "testing"

// A get step's format-1 keys in a block mapping become one state line in
// place of the first, the others' lines go, and everything else — other
// keys, comments, flow mappings — keeps its text.
func TestUpgradeRewritesOnlyWhatTheFormatChanged(t *testing.T) {
	const old = `level: runtime
name: block and flow  # a comment that stays
steps:
  - get: {agent: main}
    expect:
      clause: PEND-7
      active: false   # the log
      noPending: true
  - get: {agent: main}
    expect: {clause: PEND-7, pending: true, active: true}
  - turn: {agent: main, prompt: Go on., script: {}}
    expect: {planMode: [], sections: [false]}
`
	const want = `level: runtime
name: block and flow  # a comment that stays
steps:
  - get: {agent: main}
    expect:
      clause: PEND-7
      state: {active: false, pending: none}   # the log
  - get: {agent: main}
    expect: {clause: PEND-7, state: {active: true, pending: true}}
  - turn: {agent: main, prompt: Go on., script: {}}
    expect: {planMode: [], section: [false]}
`
	got, from, err := Upgrade("old.yaml", []byte(old))
	if err != nil || from != 1 || string(got) != want {
		t.Fatalf("from %d, err %v:\n%s\nwant\n%s", from, err, got, want)
	}
	again, from, err := Upgrade("new.yaml", got)
	if err != nil || from != Format || string(again) != want {
		t.Errorf("upgrading the upgraded file: from %d, err %v, changed %t", from, err, string(again) != want)
	}
}
