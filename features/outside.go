package features

import (
	"encoding/json"
	"fmt"

	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// registerOutside binds the steps of outside writers (LOG-3): another
// process appending to a live log, and an agent opened from a given log.
func (w *world) registerOutside(sc *godog.ScenarioContext) {
	sc.Step(re(`^another process appends plan/mode with the data (.+)$`), func(data string) error {
		return w.outsideAppend(spec.TypePlanMode, data)
	})
	sc.Step(re(`^another process appends the event "([^"]*)" with the data (.+)$`), w.outsideAppend)
	sc.Step(re(`^an agent "([^"]*)" is opened from the log:$`), w.openFrom)
	sc.Step(re(`^an agent "([^"]*)" is opened from an empty log$`), func(name string) error {
		return w.openFrom(name, nil)
	})
}

func (w *world) outsideAppend(typ, data string) error {
	if !json.Valid([]byte(data)) {
		return fmt.Errorf("scenario bug: the data %s is not JSON", data)
	}
	_, err := w.do(sim.Action{Append: &sim.AppendAction{Agent: mainAgent, Type: typ, Data: json.RawMessage(data)}})
	return err
}

// openFrom opens an agent whose log is the table's rows (columns type and
// data), in order.
func (w *world) openFrom(name string, table *godog.Table) error {
	if err := w.start(); err != nil {
		return err
	}
	var log []sim.EventSpec
	if table != nil {
		rows, err := tableRows(table, "log", true, "type", "data")
		if err != nil {
			return err
		}
		for _, row := range rows {
			if !json.Valid([]byte(row["data"])) {
				return fmt.Errorf("scenario bug: the data %s is not JSON", row["data"])
			}
			log = append(log, sim.EventSpec{Type: row["type"], Data: json.RawMessage(row["data"])})
		}
	}
	_, err := w.do(sim.Action{Open: &sim.OpenAction{Agent: name, Log: log}})
	return err
}
