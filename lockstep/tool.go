package lockstep

import (
	"encoding/json"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// toolView is what a tool call's result shows, independent of how an
// implementation words its errors, at both levels. ID names the call at
// the runtime level, where results are matched to the script's calls by
// it; at the plugin level calls are matched by their order and ID is
// empty (and not shown).
type toolView struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	Approved bool   `json:"approved,omitempty"`
	Asked    bool   `json:"asked,omitempty"`
	Feedback bool   `json:"feedback,omitempty"`
}

// toolViewOf is the view of a tool call's result: res is the result the
// implementation returned (its error's text is read only for the
// review's feedback, EXIT-6), review the review the call was scripted
// with (nil: none).
func toolViewOf(id string, res sim.ToolOutcome, review *sim.Review) toolView {
	v := toolView{ID: id, Name: res.Name, OK: res.OK, Asked: res.Asked}
	v.Approved = res.OK && sim.Approved(res.Result)
	if review != nil && review.FreeText() != "" {
		v.Feedback = !res.OK && strings.Contains(res.Error, review.FreeText())
	}
	return v
}

// firstDiffering is the index of the first view that differs between
// the reference's r and the implementation's i (len of the shorter when
// one is a prefix of the other).
func firstDiffering(r, i []toolView) int {
	k := 0
	for k < len(r) && k < len(i) && r[k] == i[k] {
		k++
	}
	return k
}

// toolCase is the situation of the first tool call whose result differs,
// the same at both levels; each level's attribution rows name its clauses
// (pluginToolRows, runtimeToolRows).
type toolCase int

const (
	toolHost toolCase = iota
	toolOutside
	toolHeading
	toolAfterApproval
	toolRefused
	toolSeamFails
	toolPresented
	toolApproved
	toolKeepPlanning
)

// pluginToolRows and runtimeToolRows are each level's attribution row of
// a toolCase. The plugin level has no row for toolAfterApproval: its
// comparison never asks for it (a plugin step's calls are compared in
// order, without the batch a runtime's response makes).
var (
	pluginToolRows = [...]string{
		toolHost: attribution.RowToolHost, toolOutside: attribution.RowToolOutside, toolHeading: attribution.RowToolHeading,
		toolRefused: attribution.RowToolRefused, toolSeamFails: attribution.RowToolSeamFails, toolPresented: attribution.RowToolPresented,
		toolApproved: attribution.RowToolApproved, toolKeepPlanning: attribution.RowToolKeepPlanning,
	}
	runtimeToolRows = [...]string{
		toolHost: attribution.RowRtToolHost, toolOutside: attribution.RowRtToolOutside, toolHeading: attribution.RowRtToolHeading,
		toolAfterApproval: attribution.RowRtToolAfterApproval, toolRefused: attribution.RowRtToolRefused, toolSeamFails: attribution.RowRtToolSeamFails,
		toolPresented: attribution.RowRtToolPresented, toolApproved: attribution.RowRtToolApproved, toolKeepPlanning: attribution.RowRtToolKeepPlanning,
	}
)

// toolCall is what the comparison reads of the call whose result differs:
// its name and arguments, its scripted review, whether plan mode was in
// force where the request that carried it was sent, whether the user
// cannot be asked (no user-questions channel), and whether an earlier
// call of its batch was approved (runtime level only).
type toolCall struct {
	name          string
	args          json.RawMessage
	review        *sim.Review
	active        bool
	noQuestions   bool
	afterApproval bool
}

// caseOf is the situation of the call c, the first whose result differs
// (r[k] against i[k], either side possibly missing).
func (c toolCall) caseOf(r, i []toolView, k int) toolCase {
	var args struct {
		Plan string `json:"plan"`
	}
	_ = json.Unmarshal(c.args, &args)
	review := sim.Review{}
	if c.review != nil {
		review = *c.review
	}
	asked := k < len(r) && k < len(i) && r[k].Asked != i[k].Asked
	refused := asked && r[k].Asked && !i[k].OK
	switch {
	case c.name != "" && c.name != spec.ExitTool:
		return toolHost // a tool of the host's own
	case !c.active:
		return toolOutside
	case !spec.PlanOpensWithLevel1Heading(args.Plan):
		return toolHeading
	case refused && c.afterApproval:
		// plan guidance stays in force for the rest of the batch
		return toolAfterApproval
	case refused:
		// The reference presented the plan; the implementation refused
		// it without presenting, as if outside plan mode — whatever the
		// review would have answered, even a reload during it.
		return toolRefused
	case c.noQuestions || review.Reload || review.Fail != "":
		return toolSeamFails
	case asked:
		return toolPresented
	case review.Answer == sim.Approve && review.Feedback == "":
		return toolApproved
	default:
		return toolKeepPlanning
	}
}
