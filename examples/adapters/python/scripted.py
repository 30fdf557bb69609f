"""The user of the plan review as plankit scripts it (a request's
"review"), played as a user-questions seam would: ask_reply() returns the
reply the seam hands the plugin, or raises as the seam does when the user
dismisses the question or the seam itself fails. Shared by the adapter
(adapter.py) and the runtime example (examples/runtimes/python).
"""

import planmode


def ask_reply(review, question):
    """The seam's reply {"answers": [{"id", "selected", "custom"?}]} to
    question for the scripted review, in the plugin's own labels."""
    if review.get("fail"):
        raise planmode.ReviewFailed(review["fail"])
    if review.get("answer") == "dismiss":
        raise planmode.ReviewDismissed()
    labels = {"approve": question["options"][0], "keep-planning": question["options"][1]}
    if "reply" in review:
        scripted = review["reply"].get("answers", [])
    elif review.get("answer") in labels:
        scripted = [{"selected": [review["answer"]], "custom": review.get("feedback", "")}]
    elif review.get("feedback"):
        scripted = [{"custom": review["feedback"]}]
    else:
        scripted = []
    answers = []
    for a in scripted:
        item = {"id": a.get("question", question["id"]), "selected": [labels[s] for s in a.get("selected", [])]}
        if a.get("custom"):
            item["custom"] = a["custom"]
        answers.append(item)
    return {"answers": answers}
