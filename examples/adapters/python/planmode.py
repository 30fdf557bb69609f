"""A small plan-mode implementation in Python 3 (standard library only).

It implements the plan-mode service of SPEC.md the way a runtime plugin
would: the state is the session log (the last plan/mode event wins) plus
the process-local pending selections. Everything it does to its host goes
through a `host` object with five operations, which is the only thing the
adapter (adapter.py) has to provide:

    host.append(agent, type, data)   -> raises AppendFailed when the host fails it
    host.steer(agent, message)
    host.inject(agent, message)
    host.next()                      -> the downstream listeners' decision
    host.ask(agent, question)        -> the seam's reply {"answers": [{"id", "selected", "custom"?}]};
                                        raises ReviewDismissed or ReviewFailed

Nothing here knows about the protocol.
"""

import json
import re

import mistakes

SECTION_NAME = "plan:policy"
SECTION_ORDER = 50
EXIT_TOOL = "exit_plan_mode"
COMMAND_NAME = "plan"
PLUGIN_NAME = "plan-mode"
PACKAGE = "plankit-example-python-plan-mode"  # this module, as a runtime lists it
VERSION = "0.1.0"

NOTICE_ON = "The user switched this session to plan mode."
NOTICE_OFF = "The user switched this session back to the default mode."

# DEFER_IDLE_NOTICE (adapter.py --defer-idle-notice) narrates a change
# committed between turns at the next accepted in-turn pre-step, for the
# net change since the last request header, instead of injecting the
# notice at the commit: a change reverted before the next request is then
# never narrated (choice idle-revert-notice=net). Either way is faithful;
# the example does not declare the choice (either: not judged).
DEFER_IDLE_NOTICE = False

# The silent points of the spec, as this implementation decides them.
CHOICES = {
    "fold-end": "clamp",
    "cancel-pending": "clear",
    "section-source": "log",
    "reload-pending": "drop",
    "idle-append-failure": "error",
    "plan-heading": "level-1",
    "empty-step": "keep-pending",
}


class AppendFailed(Exception):
    """The host failed an append."""


class ConfigError(Exception):
    """The plugin config is invalid (CFG-1)."""


def resolve_config(config):
    """Validate the config: exactly {section: non-blank string} (CFG-1)."""
    if not isinstance(config, dict):
        raise ConfigError("plan-mode config must be an object { section: string }")
    unknown = sorted(k for k in config if k != "section")
    if unknown and not mistakes.on("config-unknown-keys-ignored"):
        raise ConfigError(
            "plan-mode config has unknown key(s) %s; the config is { section }" % ", ".join(unknown))
    if "section" not in config:
        raise ConfigError("plan-mode config needs a string `section`")
    section = config["section"]
    if section is None:
        section = ""
    if not isinstance(section, str):
        raise ConfigError("plan-mode config `section` must be a string")
    if section.strip() == "":
        raise ConfigError("plan-mode config `section` must not be blank")
    return section


def plan_mode_of(event):
    """The active flag of a plan/mode event, or None when its data has no
    boolean `active` (LOG-1). Other fields beside it are ignored: LOG-2 folds
    "the `active` of the last `plan/mode`" (choice plan-mode-data=fold-active,
    the default)."""
    data = event.get("data")
    if isinstance(data, dict) and isinstance(data.get("active"), bool):
        return data["active"]
    return None


def fold_plan_mode(events, end=None):
    """foldPlanMode(events, end): the last valid plan/mode among
    events[0:end), false when none (LOG-2). end is clamped (fold-end=clamp)."""
    if end is None:
        end = len(events)
    end = min(max(end, 0), len(events))
    active = False
    for e in events[:end]:
        if e.get("type") == "plan/mode":
            v = plan_mode_of(e)
            if v is not None:
                active = v
                if mistakes.on("fold-first"):
                    break
    return active


class Session:
    """One agent's log as this process sees it, with the folds the hot
    path needs kept up to date as events arrive."""

    def __init__(self, events=()):
        self.events = []
        self.active = False   # fold of the whole log
        self.open = False     # a turn/start without a later turn/end
        self.header = None    # the fold at the last request/header
        for e in events:
            self.add(e)

    def add(self, event, own=False):
        """Add an event of the log; own: one the plugin appended itself."""
        self.events.append(event)
        t = event.get("type")
        if t == "plan/mode" and (own or not mistakes.on("mirror-ignores-outside-writes")):
            v = plan_mode_of(event)
            if v is not None:
                self.active = v
        elif t == "turn/start":
            self.open = True
        elif t == "turn/end":
            self.open = False
        elif t == "request/header":
            self.header = self.active


def notice(active):
    text = NOTICE_ON if active else NOTICE_OFF
    return {"role": "user", "text": text,
            "source": {"kind": "plugin", "plugin": PLUGIN_NAME, "form": "notice", "summary": text}}


PLAN_HEADING = re.compile(r"^#[ \t\n\f\r]+[^ \t\n\f\r]")

OFF_TEXT = {
    "committed": "Plan mode off.",
    "queued": "Leaving plan mode (applies from the next step).",
    "cancelled": "Plan mode entry cancelled.",
    "noop": "Plan mode is already off.",
}
ON_TEXT = {
    "committed": "Plan mode on. Use /plan off to leave.",
    "queued": "Entering plan mode (applies from the next step). Use /plan off to leave.",
    "cancelled": "Plan mode exit cancelled; plan mode stays on.",
    "noop": "Plan mode is already on.",
}


class ToolError(Exception):
    """exit_plan_mode failed; the message goes back to the model."""


class ReviewDismissed(Exception):
    """The user closed the review question without answering."""


class ReviewFailed(Exception):
    """The user-questions seam failed: it threw, the step aborted, it
    refused the agent, or it had no way to ask."""


class PlanMode:
    """The plan-mode service of one loaded plugin over the sessions of one
    process. pending maps agent -> (active, narrate); owed holds the agents
    whose last idle commit owes its narration (DEFER_IDLE_NOTICE)."""

    def __init__(self, section, services, sessions):
        self.section = section
        self.services = services
        self.sessions = sessions
        self.pending = {}
        self.owed = set()
        self.disposed = False

    def get(self, agent):
        s = self.sessions[agent]
        reply = {"active": s.active}
        if agent in self.pending and mistakes.on("get-active-is-pending"):
            reply["active"] = self.pending[agent][0]
        if agent in self.pending and not mistakes.on("get-hides-pending"):
            reply["pending"] = self.pending[agent][0]
        return reply

    def _append(self, host, agent, active):
        host.append(agent, "plan/mode", {"active": active})

    def _narration(self, s, target):
        """A user selection is narrated only when the last logged request
        header described the other state (STEP-6)."""
        if mistakes.on("notice-always"):
            return notice(target), True
        if mistakes.on("notice-never"):
            return notice(target), False
        return notice(target), s.header is not None and s.header != target

    def set(self, host, agent, active):
        """set(agent, active) -> committed | queued | cancelled | noop
        (PEND-3..6). Raises RuntimeError when an idle append fails."""
        s = self.sessions[agent]
        logged = s.active
        current = self.pending[agent][0] if agent in self.pending else logged
        if active == current and not (mistakes.on("requeue-pending") and agent in self.pending):
            return "noop"
        if (s.open or mistakes.on("idle-set-queues")) and not mistakes.on("queued-commits-at-once"):
            if active == logged:
                self.pending.pop(agent, None)
                return "noop" if mistakes.on("cancel-returns-noop") else "cancelled"
            self.pending[agent] = (active, True)
            return "queued"
        if active == logged:
            self.pending.pop(agent, None)
            return "cancelled"
        msg, narrate = self._narration(s, active)
        try:
            self._append(host, agent, active)
        except AppendFailed as e:
            raise RuntimeError("could not log the plan-mode change: %s" % e)
        self.pending.pop(agent, None)
        if DEFER_IDLE_NOTICE:
            # Told at the next accepted in-turn pre-step, if the state then
            # still differs from the last header; a revert owes nothing.
            if narrate:
                self.owed.add(agent)
            else:
                self.owed.discard(agent)
        elif narrate:
            host.inject(agent, msg)
        return "committed"

    def pre_step(self, host, agent, aborted, skips_empty=False):
        """The agent/pre-step listener (STEP-1..7): downstream first, then
        the pending selection is appended only if the step goes ahead. A
        step the runtime skips because its decision carries no messages is
        not one: a notice there would start a step (PEND-2), so the
        selection stays pending (choice empty-step=keep-pending)."""
        s = self.sessions[agent]
        if mistakes.on("append-before-downstream"):
            return self._pre_step_appending_first(host, agent, s)
        decision = host.next()
        if mistakes.on("append-on-abort"):
            aborted = False
        owed = agent in self.owed
        if decision["kind"] != "enter" or aborted or (agent not in self.pending and not owed):
            return decision
        if skips_empty and not decision.get("messages"):
            return decision
        if agent in self.pending:
            decision = self._apply(host, agent, s, decision)
        if owed and decision["kind"] == "enter":
            self.owed.discard(agent)
            msg, narrate = self._narration(s, s.active)
            told = any(m.get("source", {}).get("plugin") == PLUGIN_NAME for m in decision.get("messages") or [])
            if narrate and not told:
                decision = dict(decision, messages=list(decision.get("messages") or []) + [msg])
        return decision

    def _apply(self, host, agent, s, decision):
        """Append the pending selection at an accepted pre-step and narrate
        a user's change in the step's messages (STEP-5..7)."""
        active, narrate_intent = self.pending[agent]
        narrate_intent = narrate_intent or mistakes.on("exit-narrated")
        if active == s.active:
            del self.pending[agent]
            return decision
        msg, narrate = self._narration(s, active)
        try:
            self._append(host, agent, active)
        except AppendFailed:
            if mistakes.on("failed-append-drops-selection"):
                del self.pending[agent]
            if mistakes.on("failed-append-rejects-step"):
                return {"kind": "reject"}
            return decision  # stays pending (STEP-5)
        del self.pending[agent]
        if narrate_intent and narrate:
            decision = dict(decision, messages=list(decision.get("messages") or []) + [msg])
        return decision

    def _pre_step_appending_first(self, host, agent, s):
        """Mistake append-before-downstream: the pending selection is
        appended before the downstream listeners decide."""
        narrate = False
        if agent in self.pending:
            active, narrate_intent = self.pending[agent]
            msg, narrate = self._narration(s, active)
            narrate = narrate and narrate_intent
            try:
                self._append(host, agent, active)
                del self.pending[agent]
            except AppendFailed:
                narrate = False
        decision = host.next()
        if narrate and decision["kind"] == "enter":
            decision = dict(decision, messages=list(decision.get("messages") or []) + [msg])
        return decision

    def sections(self, agent):
        if not self.sessions[agent].active and not mistakes.on("section-when-inactive"):
            return []
        return [{"name": SECTION_NAME, "order": SECTION_ORDER, "text": self.section}]

    def tools(self, agent):
        if mistakes.on("exit-tool-only-in-plan-mode") and not self.sessions[agent].active:
            return []
        return [{"name": EXIT_TOOL}]

    def exit_plan_mode(self, host, agent, args):
        """exit_plan_mode (EXIT-2..7): returns the tool result or raises
        ToolError."""
        if not self.sessions[agent].active and not mistakes.on("exit-allowed-outside-plan-mode"):
            raise ToolError(EXIT_TOOL + " is only available in plan mode")
        plan = args.get("plan") if isinstance(args, dict) else None
        if not isinstance(plan, str):
            raise ToolError(EXIT_TOOL + " needs {plan: string}")
        if mistakes.on("heading-prefix-only"):
            complete = plan.strip().startswith("#")
        else:
            complete = PLAN_HEADING.match(plan.strip())
        if not complete:
            raise ToolError(EXIT_TOOL + " requires a complete markdown plan starting with a # heading")
        if mistakes.on("approve-without-review") or (mistakes.on("no-channel-approves") and not self.services.get("userQuestions")):
            self.pending[agent] = (False, False)
            return {"approved": True}
        if not self.services.get("userQuestions"):
            raise ToolError("no user-questions channel is available to review the plan; plan mode stays on")
        try:
            reply = host.ask(agent, {
                "id": "plan-review", "header": "Plan review",
                "question": "Approve this plan and leave plan mode?",
                "detail": plan, "options": ["Approve", "Keep planning"],
            })
        except ReviewDismissed:
            raise ToolError("the user dismissed the plan review; stay in plan mode and wait for their message")
        except ReviewFailed as e:
            raise ToolError("the plan review could not be completed (%s); plan mode stays on" % e)
        if self.disposed:
            raise ToolError("the plan-mode service was reloaded while the plan was under review; present the plan again")
        # Only answers to this question count; exactly one that selects
        # Approve alone, with no free text, approves (EXIT-5). Anything
        # else keeps planning: plan mode is never left implicitly (EXIT-7).
        mine = [a for a in reply.get("answers", []) if a.get("id") == "plan-review"]
        feedback = mine[0].get("custom", "") if len(mine) == 1 else ""
        if len(mine) == 1 and mine[0].get("selected") == ["Approve"] and feedback == "":
            if mistakes.on("approve-appends-at-once"):
                self.pending.pop(agent, None)
                try:
                    self._append(host, agent, False)
                except AppendFailed:
                    raise ToolError("could not leave plan mode; plan mode stays on")
                return {"approved": True}
            self.pending[agent] = (False, False)  # a silent exit (EXIT-5)
            return {"approved": True}
        # Keep planning (EXIT-6): plan mode stays on, so an approved exit
        # still pending (earlier in this tool batch, or behind a failed
        # append) is withdrawn. A user's own queued selection stays (PEND-1).
        pending = self.pending.get(agent)
        if pending is not None and not pending[1]:
            del self.pending[agent]
        if mistakes.on("keep-planning-succeeds"):
            return {"approved": False, "feedback": feedback}
        if feedback == "":
            raise ToolError("the user chose to keep planning; revise the plan and present it again")
        raise ToolError("the user chose to keep planning; their feedback: " + feedback)

    def command_outcome(self, host, agent, raw):
        """/plan [off|message] (CMD-2..4) -> (kind, text, outcome): the reply
        and the selection outcome it announces (None with an error)."""
        msg = raw.strip()
        if msg == "off":
            try:
                outcome = self.set(host, agent, False)
            except RuntimeError as e:
                return "error", str(e), None
            return "success", OFF_TEXT[outcome], outcome
        if msg == "" and mistakes.on("bare-plan-toggles") and self.get(agent).get("pending", self.get(agent)["active"]):
            try:
                outcome = self.set(host, agent, False)
            except RuntimeError as e:
                return "error", str(e), None
            return "success", OFF_TEXT[outcome], outcome
        try:
            outcome = self.set(host, agent, True)
        except RuntimeError as e:
            return "error", str(e), None
        if msg and not mistakes.on("plan-message-not-steered"):
            host.steer(agent, {"role": "user", "text": msg, "source": {"kind": "user"}})
        return "success", ON_TEXT[outcome], outcome
