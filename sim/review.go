package sim

import (
	"fmt"
	"github.com/plankit/plankit/spec"
	"slices"
)

// How the user-questions seam fails instead of answering a plan review
// (Review.Fail). A dismissed review (Answer Dismiss) is the user closing the
// question; these are the seam itself failing.
const (
	// ReviewThrows: the seam throws an error of its own (the UI failed).
	ReviewThrows = "throws"
	// ReviewAborted: the step's abort signal fires while the review is
	// open; the turn then ends aborted.
	ReviewAborted = "aborted"
	// ReviewRefused: the seam refuses to ask on behalf of the calling
	// agent (an agent with no human to answer it).
	ReviewRefused = "refused"
	// ReviewUnavailable: the user-questions service is composed but has
	// no way to ask (no provider registered).
	ReviewUnavailable = "unavailable"
)

// ReviewFailures lists the values of Review.Fail.
var ReviewFailures = []string{ReviewThrows, ReviewAborted, ReviewRefused, ReviewUnavailable}

// ExtendedReviews holds one review of each kind Reply and Fail can state,
// for generators to draw from: a reply whose own answer approves beside an
// answer to another question, an approval of another question only, both
// options selected, two answers to the review, free text alone, no answer,
// and every way the seam fails.
var ExtendedReviews = []Review{
	{Reply: &ReviewReply{Answers: []ReviewAnswer{{Question: "scope-check", Selected: []string{KeepPlanning}}, {Selected: []string{Approve}}}}},
	{Reply: &ReviewReply{Answers: []ReviewAnswer{{Question: "scope-check", Selected: []string{Approve}}}}},
	{Reply: &ReviewReply{Answers: []ReviewAnswer{{Selected: []string{Approve, KeepPlanning}}}}},
	{Reply: &ReviewReply{Answers: []ReviewAnswer{{Selected: []string{Approve}}, {Selected: []string{Approve}}}}},
	{Reply: &ReviewReply{Answers: []ReviewAnswer{{Custom: "cover the rollback"}}}},
	{Reply: &ReviewReply{Answers: []ReviewAnswer{}}},
	{Fail: ReviewThrows},
	{Fail: ReviewAborted},
	{Fail: ReviewRefused},
	{Fail: ReviewUnavailable},
}

// ReviewReply is what the user-questions seam returns for the plan review:
// the answers, in order, as the user gave them. A reply may answer the
// review question more than once, select several options, answer another
// question, give free text with no option, or hold no answer at all.
type ReviewReply struct {
	Answers []ReviewAnswer `json:"answers"`
}

// ReviewAnswer is one answer of a reply.
type ReviewAnswer struct {
	// Question is the id of the question answered; empty means the
	// question the tool asked. Any other id names a question it did not ask.
	Question string `json:"question,omitempty"`
	// Selected lists the options selected, by meaning: Approve (the
	// option that approves the plan) or KeepPlanning (the other one).
	// The implementation's own labels stand for them on the wire to the
	// plugin.
	Selected []string `json:"selected,omitempty"`
	// Custom is the user's free text; empty when none.
	Custom string `json:"custom,omitempty"`
}

// Extended reports whether the review uses the vocabulary of adapter
// protocol minor 2 (a structured reply or a failing seam), which an
// implementation must declare (capability reviewReplies) to be sent.
func (r Review) Extended() bool { return r.Reply != nil || r.Fail != "" }

// Structured is the reply the seam returns for the review: Reply as given,
// or the one Answer and Feedback stand for. An approval or keep-planning
// selects that one option, carrying Feedback as free text; no answer is a
// reply with free text alone (Feedback) or nothing at all. A dismissed or
// failing review has no reply (ok false).
func (r Review) Structured() (reply ReviewReply, ok bool) {
	if r.Fail != "" || r.Answer == Dismiss {
		return ReviewReply{}, false
	}
	if r.Reply != nil {
		return ReviewReply{Answers: slices.Clone(r.Reply.Answers)}, true
	}
	switch r.Answer {
	case Approve, KeepPlanning:
		return ReviewReply{Answers: []ReviewAnswer{{Selected: []string{r.Answer}, Custom: r.Feedback}}}, true
	}
	if r.Feedback != "" {
		return ReviewReply{Answers: []ReviewAnswer{{Custom: r.Feedback}}}, true
	}
	return ReviewReply{Answers: []ReviewAnswer{}}, true
}

// FreeText is the user's free text the review gives the question asked:
// Feedback, or the Custom of a reply's one answer to that question. An
// implementation that keeps planning carries it (EXIT-6).
func (r Review) FreeText() string {
	if r.Reply == nil {
		return r.Feedback
	}
	text, n := "", 0
	for _, a := range r.Reply.Answers {
		if a.AnswersTheReview() {
			text, n = a.Custom, n+1
		}
	}
	if n != 1 {
		return ""
	}
	return text
}

// AnswersTheReview reports whether the answer is to the question the exit
// tool asked: it names no question, or the review question's id.
func (a ReviewAnswer) AnswersTheReview() bool {
	return a.Question == "" || a.Question == spec.ReviewQuestionID
}

// Validate reports a review a trace cannot mean.
func (r Review) Validate() error {
	switch r.Answer {
	case "", Approve, KeepPlanning, Dismiss:
	default:
		return inputf("review answer must be approve, keep-planning or dismiss, not %q", r.Answer)
	}
	if r.Fail != "" && !slices.Contains(ReviewFailures, r.Fail) {
		return inputf("review fail must be one of %v, not %q", ReviewFailures, r.Fail)
	}
	if r.Extended() && (r.Answer != "" || r.Feedback != "") {
		return inputf("a review with reply or fail gives no answer or feedback")
	}
	if r.Reply != nil && r.Fail != "" {
		return inputf("a review either replies or fails, not both")
	}
	if r.Reply != nil {
		for i, a := range r.Reply.Answers {
			for _, s := range a.Selected {
				if s != Approve && s != KeepPlanning {
					return inputf("review reply answer %d selects %q; an option is approve or keep-planning", i+1, s)
				}
			}
		}
	}
	return nil
}

// String names the review for messages.
func (r Review) String() string {
	switch {
	case r.Fail != "":
		return "the review seam fails (" + r.Fail + ")"
	case r.Reply != nil:
		return fmt.Sprintf("the review reply %s", JSON(r.Reply))
	case r.Answer != "":
		return "the review answer " + r.Answer
	}
	return "no review answer"
}
