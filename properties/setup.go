package properties

import (
	"slices"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// Setup is what a generated run is configured with; it becomes the header
// of a counterexample trace.
type Setup struct {
	Services sim.Services
	Retries  string // sim.RetriesPreStep or sim.RetriesSameStep
	// NoPlugin runs the session without the plan-mode package (SVC-2).
	NoPlugin bool
	// HostTools: the host registers HostTools before the plugin loads and
	// an assembly listener after plan mode's adds AssemblyTools (EXIT-1,
	// SVC-3); drawn only for implementations that declare host tools.
	HostTools bool
	// EmptySteps is sim.Options.EmptySteps; skip only for implementations
	// that declare empty steps.
	EmptySteps string
}

// The host's own tools of a run with Setup.HostTools.
var (
	HostTools     = []string{"read", "write"}
	AssemblyTools = []string{"search"}
)

// Within clears what the implementation does not declare it can be shown,
// so a run never needs a request it would answer unsupported.
func (s Setup) Within(id sim.Identity) Setup {
	if !id.HostTools {
		s.HostTools = false
	}
	if !id.EmptySteps {
		s.EmptySteps = ""
	}
	return s
}

// catalog is the request's tool catalog the model predicts: the host's
// tools in the host's order, then exit_plan_mode while the plugin is
// composed (EXIT-1, SVC-2).
func (s Setup) catalog(plugin bool) []sim.Tool {
	out := []sim.Tool{}
	if s.HostTools {
		for _, n := range append(slices.Clone(HostTools), AssemblyTools...) {
			out = append(out, sim.Tool{Name: n})
		}
	}
	if plugin {
		out = append(out, sim.Tool{Name: spec.ExitTool})
	}
	return out
}

// The fixed parts of every generated run.
const (
	// AuditListener is a trace listener registered before the plugin; it
	// adds AuditMessage to every step it accepts, which pins where the
	// plugin's notice sits in the chain (STEP-1).
	AuditListener = "audit"
	AuditMessage  = "Audit: the workspace is clean."
)

// Section is the guidance text every generated run configures.
const Section = trace.DefaultSection

// Options returns the simulator options of a run with this setup.
func (s Setup) Options() sim.Options {
	o := sim.Options{
		NoPlugin:  s.NoPlugin,
		Config:    sim.JSON(map[string]string{"section": Section}),
		Services:  s.Services,
		Retries:   s.Retries,
		Listeners: []sim.ListenerSpec{auditListener},
		Agents:    []string{"main", "side"},
	}
	if s.HostTools {
		o.HostTools, o.AssemblyTools = slices.Clone(HostTools), slices.Clone(AssemblyTools)
	}
	o.EmptySteps = s.EmptySteps
	return o
}

// Trace returns a trace with this setup and script.
func (s Setup) Trace(name, description string, clauses []string, script []trace.Entry) *trace.Trace {
	o := s.Options()
	services := s.Services
	rt := &trace.Runtime{Retries: s.Retries, EmptySteps: s.EmptySteps}
	if s.NoPlugin {
		rt.Plugin = ptr(false)
	}
	var hostTools []trace.HostTool
	for _, n := range o.HostTools {
		hostTools = append(hostTools, trace.HostTool{Name: n})
	}
	for _, n := range o.AssemblyTools {
		hostTools = append(hostTools, trace.HostTool{Name: n, Assembly: true})
	}
	return &trace.Trace{
		Name: name, Description: description, Clauses: clauses,
		Runtime:   rt,
		Config:    o.Config,
		Services:  &services,
		Listeners: o.Listeners,
		HostTools: hostTools,
		Agents:    o.Agents,
		Script:    script,
	}
}
