#!/usr/bin/env python3
"""A small agent runtime in Python 3 (standard library only) with plan mode
in its loop, served over the plankit runtime protocol v1, minor 5
(docs/runtime-protocol.md). Check it with

    plankit check --level runtime --adapter "python3 examples/runtimes/python/runtime.py"

The loop is this file's own: turns, steps, the agent/pre-step chain with
next(), request assembly after the pre-step, request-recovery retries
through the pre-step, tool calls, commands. Plan mode is the plugin of the
plugin-level example (examples/adapters/python/planmode.py), loaded into
this loop as a runtime would load it. The model and the user are played by
plankit through the script each turn carries. It lists both parts, the loop
and the plugin with their versions, as its components at start (minor 4),
and says which selection outcome each /plan reply announces (minor 5).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python"))
import mistakes  # noqa: E402
import planmode  # noqa: E402
import scripted  # noqa: E402
from serve import Failure, serve  # noqa: E402

PROTOCOL = 1
BASE_SECTION = {"name": "runtime:base", "order": 0, "text": "You are a coding agent."}


def user_message_data(m):
    return {"content": [{"type": "text", "text": m["text"]}], "role": m.get("role", "user"), "source": m["source"]}


class Agent:
    def __init__(self, name, events):
        self.name = name
        self.log = []
        self.session = planmode.Session()
        self.queue = []     # messages for the next step
        self.turn = 0
        self.step = 0
        self.commands = 0
        self.faults = 0     # plan/mode appends that will fail
        self.header = None  # the last request header, to give its reason
        for e in events:
            self.add(e["type"], e["data"])
        for e in self.log:
            if e["type"] == "turn/start":
                self.turn += 1

    def add(self, type_, data, own=False):
        e = {"seq": len(self.log), "type": type_, "data": data}
        self.log.append(e)
        self.session.add(e, own)
        return e


class Turn:
    """What the script of the running turn says and what it observed."""

    def __init__(self, script):
        self.responses = list(script.get("responses") or [])
        self.pre_steps = list(script.get("preSteps") or [])
        self.requests = []
        self.results = []
        self.review = {}
        self.downstream = None
        self.aborted = False  # the step's signal fired (a review aborted)


class Runtime:
    def __init__(self):
        self.agents = {}
        self.plugin = None  # None: plan mode is not loaded (refused, or unloaded)
        self.section = None
        self.config = None
        self.services = {}
        self.host_tools = []
        self.listeners = []
        self.turn = None  # the running Turn, if any
        self.unloaded = False

    # --- the host plan mode sees --------------------------------------
    def append(self, agent, type_, data):
        a = self.agents[agent]
        if type_ == "plan/mode" and a.faults > 0:
            a.faults -= 1
            raise planmode.AppendFailed("the session store failed the append")
        a.add(type_, data, own=True)

    def steer(self, agent, message):
        self.agents[agent].queue.append(message)

    def inject(self, agent, message):
        self.agents[agent].queue.append(message)

    def next(self):
        return self.turn.downstream()

    def ask(self, agent, question):
        review = self.turn.review if self.turn else {}
        self.turn.asked = True
        if review.get("reload"):
            self.reload({})
        if review.get("fail") == "aborted":
            # the step's signal fires while the question is open
            self.turn.aborted = True
        return scripted.ask_reply(review, question)

    # --- lifecycle ----------------------------------------------------
    def start(self, params):
        if params.get("level") != "runtime":
            raise Failure('this is a runtime: it speaks the runtime protocol (start with "level": "runtime")')
        if params.get("protocol") != PROTOCOL:
            raise Failure("protocol %r is not supported" % params.get("protocol"))
        self.__init__()
        return {"protocol": PROTOCOL, "level": "runtime", "minor": 5, "name": "plankit-example-python-runtime",
                "version": "0.1.0", "language": "python", "choices": planmode.CHOICES,
                "components": [{"name": "plankit-example-python-runtime", "version": "0.1.0"},
                               {"name": planmode.PACKAGE, "version": planmode.VERSION}],
                "capabilities": {"retry": "pre-step", "commands": True, "userQuestions": True,
                                 "hostTools": True, "hostListeners": True, "duringStream": True,
                                 "outsideAppend": True, "failAppend": True, "resume": True,
                                 "reload": True, "reuse": True, "reviewReplies": True, "emptySteps": True,
                                 "unload": True, "commandOutcomes": True}}

    def load(self, params):
        self.config = params.get("config")
        self.services = params.get("services") or {}
        self.host_tools = [t["name"] for t in params.get("hostTools") or []]
        self.listeners = params.get("listeners") or []
        try:
            section = planmode.resolve_config(self.config)
        except planmode.ConfigError as e:
            return {"error": str(e)}
        self.section = section
        self.plug()
        return {}

    def plug(self, sessions=None):
        """Load plan mode over the agents' sessions; it folds their logs."""
        self.plugin = planmode.PlanMode(self.section, self.services, sessions or {})
        for name, a in self.agents.items():
            self.plugin.sessions[name] = a.session

    def reload(self, params):
        """Dispose plan mode and load it again (after an unload: load it)."""
        old = self.plugin
        if old is None:
            self.plug()
            return {}
        old.disposed = True
        self.plug(old.sessions)
        return {}

    def unload(self, params):
        """Dispose plan mode without loading it again: its service,
        section, tool, command and listener go, with its pending
        selections (SVC-2, PEND-8); the logs stay."""
        if self.plugin is not None:
            self.plugin.disposed = True
        self.plugin = None
        self.unloaded = True
        return {}

    def service(self):
        if self.plugin is None:
            raise Failure("the plan-mode service is not loaded")
        return self.plugin

    def open(self, params):
        a = Agent(params["agent"], params.get("events") or [])
        if mistakes.on("resume-ignores-log"):
            a.session.active = False  # plan mode starts from its default, not the log
        self.agents[a.name] = a
        if self.plugin is not None:
            self.plugin.sessions[a.name] = a.session
        return {}

    def agent(self, params):
        name = params.get("agent")
        if name not in self.agents:
            raise Failure("unknown agent %r" % name)
        return self.agents[name]

    # --- between turns ------------------------------------------------
    def set(self, params):
        a = self.agent(params)
        start = len(a.log)
        out = self.host_set(a, params["active"])
        if mistakes.on("selection-runs-step") and a.queue:
            # the notice of an idle commit wakes the agent
            self.admit(a)
            self.play(a, start, {})
        out["events"] = a.log[start:]
        return out

    def get(self, params):
        return self.service().get(self.agent(params).name)

    def append_event(self, params):
        a = self.agent(params)
        return {"events": [a.add(params["type"], params["data"])]}

    def fault(self, params):
        self.agent(params).faults += params["count"]
        return {}

    def run_turn(self, params):
        a = self.agent(params)
        start = len(a.log)
        a.queue.append({"role": "user", "text": params["prompt"], "source": {"kind": "user"}})
        self.admit(a)
        return self.play(a, start, params.get("script") or {})

    def command(self, params):
        a = self.agent(params)
        start = len(a.log)
        kind, text, outcome, woke = self.host_command(a, params["input"])
        out = {"kind": kind, "text": text}
        if outcome is not None:
            out["outcome"] = outcome
        if woke and not a.session.open:
            self.admit(a)
            out.update(self.play(a, start, params.get("script") or {}))
        else:
            out["events"] = a.log[start:]
        return out

    # --- host code ------------------------------------------------------
    def host_set(self, a, active):
        try:
            return {"outcome": self.service().set(self, a.name, active)}
        except RuntimeError as e:
            return {"error": str(e)}

    def host_command(self, a, line):
        """Run a command line -> (kind, text, outcome, woke): the reply, the
        selection outcome it announces (None unless /plan succeeded) and
        whether it steered a message the agent must run for."""
        name, _, args = line.lstrip("/").partition(" ")
        a.commands += 1
        cid = "cmd-%s-%d" % (a.name, a.commands)
        a.add("command/run", {"commandId": cid, "name": name, "args": args, "source": {"kind": "user"}})
        queued = len(a.queue)
        if name == planmode.COMMAND_NAME and (self.services.get("commands") or mistakes.on("command-without-commands-service")) and self.plugin is not None:
            kind, text, outcome = self.plugin.command_outcome(self, a.name, args)
        else:
            kind, text, outcome = "error", "unknown command /%s" % name, None
        a.add("command/done", {"commandId": cid, "kind": kind, "text": text})
        return kind, text, outcome, len(a.queue) > queued and kind == "success" and args.strip() not in ("", "off")

    def host_actions(self, a, actions):
        for h in actions or []:
            r = {"id": h["id"]}
            if "set" in h:
                r["set"] = self.host_set(a, h["set"]["active"])
            elif "get" in h:
                r["get"] = self.service().get(a.name)
            elif "command" in h:
                kind, text, outcome, _ = self.host_command(a, h["command"]["input"])
                r["command"] = {"kind": kind, "text": text}
                if outcome is not None:
                    r["command"]["outcome"] = outcome
            elif "append" in h:
                a.add(h["append"]["type"], h["append"]["data"])
                r["append"] = {}
            elif "fault" in h:
                a.faults += h["fault"]["count"]
                r["fault"] = {}
            self.turn.results.append(r)

    # --- the loop -------------------------------------------------------
    def admit(self, a):
        a.turn += 1
        a.step = 0
        a.add("turn/start", {"turn": a.turn})
        if mistakes.on("admission-appends-pending") and self.plugin is not None and a.name in self.plugin.pending:
            active, _ = self.plugin.pending.pop(a.name)  # the turn starts in the selected mode
            try:
                self.append(a.name, "plan/mode", {"active": active})
            except planmode.AppendFailed:
                self.plugin.pending[a.name] = (active, True)

    def end_turn(self, a, reason):
        a.add("turn/end", {"turn": a.turn, "reason": {"kind": reason}})

    def chain(self, a, dispatch, claimed, skips_empty=False):
        """Run agent/pre-step: plan mode's listener first (prepended,
        STEP-1), then the host listeners in registration order, each of
        which calls next() unless it rejects."""
        behaviour = {}
        for p in self.turn.pre_steps:
            if p["dispatch"] == dispatch:
                behaviour[p["listener"]] = p["behaviour"]
                self.host_actions(a, p.get("during"))
        ordered = [l for l in self.listeners if l["position"] == "before"] + \
                  [l for l in self.listeners if l["position"] == "after"]
        # The host listeners are scripted, so whether one aborts the step
        # (fires its signal, then calls next()) is known before they run.
        aborted = False
        for l in ordered:
            b = behaviour.get(l["name"], "accept")
            if b == "reject":
                break
            aborted = aborted or b == "abort"

        def downstream():
            for l in ordered:
                if behaviour.get(l["name"], "accept") == "reject":
                    return {"kind": "reject"}
            if any(behaviour.get(l["name"]) == "drop" for l in ordered):
                return {"kind": "enter", "messages": []}  # a listener took them
            return {"kind": "enter", "messages": list(claimed)}

        self.turn.downstream = downstream
        if self.plugin is None:
            return downstream(), aborted
        if mistakes.on("listener-appended"):
            return self.chain_appended(a, ordered, behaviour, claimed, aborted, skips_empty), aborted
        return self.plugin.pre_step(self, a.name, aborted, skips_empty), aborted

    def chain_appended(self, a, ordered, behaviour, claimed, aborted, skips_empty):
        """Mistake listener-appended: plan mode's listener runs last, after
        the host listeners, around only the step's own decision."""
        for l in ordered:
            if behaviour.get(l["name"], "accept") == "reject":
                return {"kind": "reject"}
        self.turn.downstream = lambda: {"kind": "enter", "messages": list(claimed)}
        decision = self.plugin.pre_step(self, a.name, aborted, skips_empty)
        if decision["kind"] == "enter" and any(behaviour.get(l["name"]) == "drop" for l in ordered):
            return {"kind": "enter", "messages": []}  # a listener outside plan mode took them
        return decision

    def play(self, a, start, script):
        self.turn = Turn(script)
        try:
            dispatch, retrying, retries, continues = 0, False, 0, False
            forced = False
            while True:
                response = self.turn.responses.pop(0) if self.turn.responses else {"text": "Done."}
                if retrying:
                    retries += 1
                    a.add("llm/retry", {"turn": a.turn, "step": a.step, "retry": retries, "mode": "pre-step"})
                dispatch += 1
                claimed, a.queue = a.queue, []
                # A step with nothing to send is skipped, unless it continues
                # after tool results; plan mode is told (skipsEmpty).
                skips_empty = not retrying and not continues
                early = self.assemble(a) if mistakes.on("assemble-before-pre-step") else None
                if retrying and mistakes.on("retry-skips-pre-step"):
                    decision, aborted = {"kind": "enter", "messages": claimed}, False
                else:
                    decision, aborted = self.chain(a, dispatch, claimed, skips_empty)
                if skips_empty and decision["kind"] == "enter" and not aborted and not decision.get("messages"):
                    self.end_turn(a, "completed")
                    break
                if decision["kind"] != "enter" or aborted:
                    a.queue = claimed + a.queue
                    if retrying:
                        a.add("step/end", {"turn": a.turn, "step": a.step})
                    self.end_turn(a, "aborted" if aborted else "blocked")
                    break
                if not retrying:
                    a.step += 1
                    a.add("step/start", {"turn": a.turn, "step": a.step})
                for m in decision.get("messages") or []:
                    a.add("user/message", user_message_data(m))
                self.request(a, early)
                self.host_actions(a, response.get("during"))
                if response.get("fail"):
                    retrying = True
                    continue
                retrying, retries = False, 0
                calls = response.get("calls") or []
                continues = bool(calls)
                self.respond(a, response, calls)
                a.add("step/end", {"turn": a.turn, "step": a.step})
                if self.turn.aborted:
                    self.end_turn(a, "aborted")
                    break
                if not calls:
                    if mistakes.on("pending-forces-step") and not forced and self.plugin is not None and "pending" in self.plugin.get(a.name):
                        forced = continues = True  # one more step, to apply the selection
                        continue
                    self.end_turn(a, "completed")
                    break
            return {"events": a.log[start:], "requests": self.turn.requests, "results": self.turn.results}
        finally:
            self.turn = None

    def assemble(self, a):
        """The system sections and tools of a request, from the loaded plugins."""
        plugin = self.plugin
        sections = sorted([BASE_SECTION] + (plugin.sections(a.name) if plugin else []), key=lambda s: s["order"])
        tools = ([t["name"] for t in plugin.tools(a.name)] if plugin else []) + self.host_tools
        if plugin is None and self.unloaded and mistakes.on("unload-keeps-exit-tool"):
            tools = [planmode.EXIT_TOOL] + self.host_tools  # the registry still lists it
        return sections, tools

    def request(self, a, assembled=None):
        """Derive the request after the pre-step (STEP-7): sections and
        tools from the loaded plugins, the transcript from the log."""
        sections, tools = assembled or self.assemble(a)
        header = {"system": sections, "tools": [{"name": t} for t in tools]}
        reason = "initial" if a.header is None else ("resume" if a.header == header else "change")
        unchanged = a.header == header
        a.header = header
        if not (unchanged and mistakes.on("header-on-change-only")):
            a.add("request/header", {"header": header, "reason": reason})
        self.turn.requests.append({"at": len(a.log), "sections": sections, "tools": tools,
                                   "messages": transcript(a.log)})

    def respond(self, a, response, calls):
        content = []
        if response.get("text"):
            content.append({"type": "text", "text": response["text"]})
        for i, c in enumerate(calls):
            c["callId"] = "call_%d_%d_%d" % (a.turn, a.step, i + 1)
            content.append({"type": "tool-call", "id": c["callId"], "name": c["name"], "arguments": json.dumps(c.get("args"), sort_keys=True)})
        a.add("assistant/message", {"turn": a.turn, "step": a.step, "message": {"role": "assistant", "content": content}})
        for c in calls:
            result = {"name": c["name"], "ok": False}
            self.turn.asked = False
            if c["name"] in self.host_tools:
                self.host_actions(a, c.get("during"))
                result.update(ok=True, value="ok")
            elif c["name"] == planmode.EXIT_TOOL and self.plugin is not None:
                self.turn.review = c.get("review") or {}
                try:
                    result.update(ok=True, value=self.plugin.exit_plan_mode(self, a.name, c.get("args")))
                except planmode.ToolError as e:
                    result["error"] = str(e)
                if self.turn.asked:
                    result["asked"] = True

            else:
                result["error"] = "unknown tool %r" % c["name"]
            a.add("tool/call", {"turn": a.turn, "step": a.step, "callId": c["callId"], "name": c["name"],
                                "arguments": json.dumps(c.get("args"), sort_keys=True)})
            text = json.dumps(result["value"], sort_keys=True) if result["ok"] else result["error"]
            a.add("tool/result", {"turn": a.turn, "step": a.step, "message": {
                "role": "user", "source": {"kind": "tool", "callId": c["callId"]},
                "content": [{"type": "tool-result", "toolCallId": c["callId"], "isError": not result["ok"],
                             "content": [{"type": "text", "text": text}]}]}})
            self.turn.results.append({"id": c["id"], "tool": result})
            if self.turn.aborted:
                break  # the step's signal fired during the review: the rest of the batch does not run


def transcript(log):
    out = []
    for e in log:
        d = e["data"]
        if e["type"] == "user/message":
            out.append({"role": "user", "text": "".join(p.get("text", "") for p in d["content"]), "source": d["source"]})
        elif e["type"] == "assistant/message":
            out.append({"role": "assistant", "text": "".join(p.get("text", "") for p in d["message"]["content"] if p["type"] == "text")})
        elif e["type"] == "plan/mode" and mistakes.on("plan-mode-in-transcript"):
            out.append({"role": "user", "text": "[plan mode %s]" % ("on" if d.get("active") else "off"), "source": {"kind": "user"}})
        elif e["type"] == "tool/result":
            out.append({"role": "tool", "text": "".join(p["text"] for c in d["message"]["content"] for p in c["content"])})
    return out


def main():
    mistakes.configure(sys.argv[1:])
    rt = Runtime()
    serve({"start": rt.start, "load": rt.load, "open": rt.open, "turn": rt.run_turn, "set": rt.set,
           "get": rt.get, "command": rt.command, "append": rt.append_event, "fault": rt.fault,
           "reload": rt.reload, "unload": rt.unload, "stop": lambda p: {}})


if __name__ == "__main__":
    main()
