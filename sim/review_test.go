package sim

import (
	"errors"
	"testing"
)

func TestReviewStructured(t *testing.T) {
	for _, c := range []struct {
		name   string
		review Review
		want   string // the reply as JSON; "" when there is none
	}{
		{"approve", Review{Answer: Approve}, `{"answers":[{"selected":["approve"]}]}`},
		{"approve with feedback", Review{Answer: Approve, Feedback: "x"}, `{"answers":[{"custom":"x","selected":["approve"]}]}`},
		{"keep planning", Review{Answer: KeepPlanning}, `{"answers":[{"selected":["keep-planning"]}]}`},
		{"feedback alone", Review{Feedback: "x"}, `{"answers":[{"custom":"x"}]}`},
		{"no answer", Review{}, `{"answers":[]}`},
		{"reply as given", Review{Reply: &ReviewReply{Answers: []ReviewAnswer{{Question: "q", Selected: []string{Approve}}}}}, `{"answers":[{"question":"q","selected":["approve"]}]}`},
		{"dismissed", Review{Answer: Dismiss}, ""},
		{"seam fails", Review{Fail: ReviewThrows}, ""},
	} {
		reply, ok := c.review.Structured()
		got := ""
		if ok {
			got = string(JSON(reply))
		}
		if got != c.want {
			t.Errorf("%s: Structured() = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestReviewFreeText(t *testing.T) {
	one := Review{Reply: &ReviewReply{Answers: []ReviewAnswer{{Question: "other", Custom: "no"}, {Custom: "yes"}}}}
	two := Review{Reply: &ReviewReply{Answers: []ReviewAnswer{{Custom: "a"}, {Custom: "b"}}}}
	for _, c := range []struct {
		review Review
		want   string
	}{{Review{Answer: KeepPlanning, Feedback: "f"}, "f"}, {one, "yes"}, {two, ""}, {Review{}, ""}} {
		if got := c.review.FreeText(); got != c.want {
			t.Errorf("FreeText of %s = %q, want %q", c.review, got, c.want)
		}
	}
}

func TestReviewValidate(t *testing.T) {
	bad := []Review{
		{Answer: "maybe"},
		{Fail: "explodes"},
		{Fail: ReviewThrows, Answer: Approve},
		{Reply: &ReviewReply{}, Feedback: "x"},
		{Reply: &ReviewReply{}, Fail: ReviewAborted},
		{Reply: &ReviewReply{Answers: []ReviewAnswer{{Selected: []string{"Approve"}}}}},
	}
	for _, r := range bad {
		var in *InputError
		if err := r.Validate(); !errors.As(err, &in) {
			t.Errorf("Validate(%s) = %v, want an input error", r, err)
		}
	}
	good := append([]Review{{}, {Answer: Dismiss}, {Reply: &ReviewReply{Answers: []ReviewAnswer{}}}}, ExtendedReviews...)
	for _, r := range good {
		if err := r.Validate(); err != nil {
			t.Errorf("Validate(%s) = %v", r, err)
		}
	}
}
