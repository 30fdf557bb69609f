package properties

import "slices"

// Configs returns the plugin configs the CFG-1 property draws: valid ones
// and each way CFG-1 rejects, so other searches (lockstep) draw the same.
func Configs() []string { return slices.Clone(configs) }
