#!/usr/bin/env python3
"""The plankit adapter for planmode.py: plankit adapter protocol v1 over
stdin/stdout (docs/adapter-protocol.md). Run it with

    plankit sim --adapter "python3 examples/adapters/python/adapter.py" examples/*.yaml

Requests arrive one JSON object per line on stdin; each gets exactly one
reply line on stdout (the loop is serve.py's, shared with the runtime
example). Logs go to stderr (set PLANMODE_DEBUG=1 to see every request).
"""

import sys

import mistakes
import planmode
import scripted
from serve import Failure, serve

PROTOCOL = 1
PROTOCOL_MINOR = 2  # minor 1: command outcomes, unload; minor 2: review replies, host tools, skipped empty steps


class Host:
    """The host of one request: it records every effect in order, fails
    the armed number of appends and answers next() and ask() from the
    request."""

    def __init__(self, adapter, params):
        self.adapter = adapter
        self.fail = params.get("failAppends", 0)
        self.effects = []
        self.downstream = params.get("downstream")
        self.review = params.get("review") or {}

    def append(self, agent, type_, data):
        effect = {"kind": "append", "type": type_, "data": data}
        self.effects.append(effect)
        if self.fail > 0:
            self.fail -= 1
            effect["failed"] = True
            raise planmode.AppendFailed("append failed")
        s = self.adapter.sessions[agent]
        s.add({"seq": len(s.events), "type": type_, "data": data}, own=True)

    def steer(self, agent, message):
        self.effects.append({"kind": "steer", "message": message})

    def inject(self, agent, message):
        self.effects.append({"kind": "inject", "message": message})

    def next(self):
        self.effects.append({"kind": "downstream"})
        return dict(self.downstream or {"kind": "enter"})

    def ask(self, agent, question):
        """The user-questions seam: returns the reply {"answers": [...]}
        the review scripts, or raises as the seam does when the user
        dismisses the question or the seam itself fails."""
        self.effects.append({"kind": "ask", "question": question})
        if self.review.get("reload"):
            self.adapter.reload()
        return scripted.ask_reply(self.review, question)


class Adapter:
    """One process's state: the session mirrors and the loaded plugin."""

    def __init__(self):
        self.sessions = {}
        self.plugin = None
        self.config = None
        self.services = {}

    # --- lifecycle ---------------------------------------------------
    def start(self, params):
        if params.get("protocol") != PROTOCOL:
            raise Failure("protocol %r is not supported; this adapter speaks protocol %d" % (params.get("protocol"), PROTOCOL))
        # A start resets everything, so the kit may reuse this process for
        # another scenario (capability "reuse").
        self.__init__()
        return {
            "protocol": PROTOCOL, "minor": PROTOCOL_MINOR, "name": "plankit-example-python", "version": "0.1.0", "language": "python",
            "choices": dict(planmode.CHOICES, **DECLARED),
            "capabilities": {"commands": True, "userQuestions": True, "fork": True, "reload": True, "reuse": True,
                             "commandOutcomes": True, "unload": True, "reviewReplies": True,
                             "hostTools": True, "emptySteps": True},
        }

    def load(self, params):
        self.config, self.services = params.get("config"), params.get("services") or {}
        return self._load()

    def _load(self):
        try:
            section = planmode.resolve_config(self.config)
        except planmode.ConfigError as e:
            self.plugin = None
            return {"error": str(e)}
        self.plugin = planmode.PlanMode(section, self.services, self.sessions)
        reply = {"listener": "prepend", "tools": [{"name": planmode.EXIT_TOOL}], "sections": [planmode.SECTION_NAME]}
        if self.services.get("commands") or mistakes.on("command-without-commands-service"):
            reply["commands"] = [planmode.COMMAND_NAME]
        return reply

    def reload(self, params=None):
        """Dispose the plugin and load it again; pending selections belong
        to the old service and are dropped (reload-pending=drop). A
        committed change's owed narration is not a selection: it stays, as a
        notice already injected stays in the runtime's inbox."""
        owed = ()
        if self.plugin is not None:
            self.plugin.disposed = True
            owed = self.plugin.owed
        reply = self._load()
        if self.plugin is not None:
            self.plugin.owed = set(owed)
        return reply

    def unload(self, params=None):
        """Dispose the plugin without loading it again: its registrations and
        pending selections go; the sessions stay. Reply: what is still
        registered (nothing)."""
        if self.plugin is not None:
            self.plugin.disposed = True
        self.plugin = None
        return {}

    def open(self, params):
        self._plugin()
        self.sessions[params["agent"]] = planmode.Session(params.get("events") or [])
        return {}

    # --- agent-scoped requests --------------------------------------
    def _plugin(self):
        if self.plugin is None:
            raise Failure("the plugin is not loaded")
        return self.plugin

    def _begin(self, params):
        """Sync the host's new events into the agent's mirror."""
        plugin = self._plugin()
        agent = params.get("agent")
        s = self.sessions.get(agent)
        if s is None:
            raise Failure("unknown agent %r" % agent)
        for e in params.get("sync") or []:
            if e.get("seq") != len(s.events):
                raise Failure("agent %r: sync event seq %r, want %d" % (agent, e.get("seq"), len(s.events)))
            s.add(e)
        return plugin, agent, Host(self, params)

    def set(self, params):
        plugin, agent, host = self._begin(params)
        reply = {}
        try:
            reply["outcome"] = plugin.set(host, agent, params["active"])
        except RuntimeError as e:
            reply["error"] = str(e)
        reply["effects"] = host.effects
        return reply

    def get(self, params):
        plugin, agent, _ = self._begin(params)
        return plugin.get(agent)

    def preStep(self, params):
        plugin, agent, host = self._begin(params)
        aborted = bool(params.get("abortedBefore") or params.get("abortDuring"))
        decision = plugin.pre_step(host, agent, aborted, bool(params.get("skipsEmpty")))
        return {"decision": decision, "effects": host.effects}

    def assemble(self, params):
        """The request's tool catalog is the host's tools as given, in their
        order, with the plugin's own after them (EXIT-1, SVC-3)."""
        plugin, agent, _ = self._begin(params)
        return {"sections": plugin.sections(agent), "tools": list(params.get("tools") or []) + plugin.tools(agent)}

    def preTool(self, params):
        """A host tool is about to run: plan mode is soft guidance and never
        blocks one (SVC-3)."""
        plugin, agent, _ = self._begin(params)
        if mistakes.on("host-tools-blocked-in-plan-mode") and plugin.get(agent)["active"]:
            return {"decision": "deny", "reason": "plan mode is read-only"}
        return {"decision": "allow"}

    def exitTool(self, params):
        plugin, agent, host = self._begin(params)
        try:
            result = plugin.exit_plan_mode(host, agent, params.get("args"))
            reply = {"ok": True, "result": result}
        except planmode.ToolError as e:
            reply = {"ok": False, "error": str(e)}
        reply["effects"] = host.effects
        return reply

    def command(self, params):
        plugin, agent, host = self._begin(params)
        if params.get("name") != planmode.COMMAND_NAME:
            return {"kind": "error", "text": "unknown command /%s" % params.get("name"), "effects": host.effects}
        kind, text, outcome = plugin.command_outcome(host, agent, params.get("input", ""))
        reply = {"kind": kind, "text": text, "effects": host.effects}
        if outcome is not None:
            reply["outcome"] = outcome
        return reply

    def fold(self, params):
        return {"active": planmode.fold_plan_mode(params.get("events") or [], params.get("end"))}

    def stop(self, params):
        return {}


METHODS = ("start", "load", "open", "set", "get", "preStep", "assemble", "exitTool", "preTool", "command", "fold", "reload", "unload", "stop")


# DECLARED are choices declared beyond planmode.CHOICES (--choice NAME=VALUE),
# so a test can hold a behaviour to a declaration it does not follow.
DECLARED = {}


def options(argv):
    """Read this adapter's own flags: --defer-idle-notice (planmode's
    DEFER_IDLE_NOTICE) and --choice NAME=VALUE (repeatable); the rest is
    the mistakes' (--mistake NAME)."""
    rest = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--defer-idle-notice":
            planmode.DEFER_IDLE_NOTICE = True
        elif a == "--choice" and args and "=" in args[0]:
            name, _, value = args.pop(0).partition("=")
            DECLARED[name] = value
        else:
            rest.append(a)
    return rest


def main():
    mistakes.configure(options(sys.argv[1:]), " [--defer-idle-notice] [--choice NAME=VALUE]...")
    adapter = Adapter()
    serve({m: getattr(adapter, m) for m in METHODS})


if __name__ == "__main__":
    main()
