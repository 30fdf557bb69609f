// Package schema holds the JSON Schemas of plankit's two wire protocols,
// embedded: the adapter protocol's in this folder, the runtime protocol's
// in runtime/. In each, request.json and reply.json are the line
// envelopes, <method>.json holds $defs/params and $defs/result of each
// method and common.json the shared types.
//
// It is a leaf (it imports nothing of plankit's), so what reads the
// schemas — the adapter's validation, the runtime trace schema of rtrace,
// which refers to the runtime protocol's types — does not link the
// process driver of package adapter.
package schema

import "embed"

// FS holds every schema file: *.json (the adapter protocol) and
// runtime/*.json (the runtime protocol).
//
//go:embed *.json runtime/*.json
var FS embed.FS

// The folders of FS holding each protocol's schemas.
const (
	PluginDir  = "."
	RuntimeDir = "runtime"
)

// PluginBase is the $id prefix of the adapter protocol's schemas.
const PluginBase = "https://plankit.github.io/schema/adapter/v1/"

// RuntimeBase is the $id prefix of the runtime protocol's schemas.
const RuntimeBase = "https://plankit.github.io/schema/runtime/v1/"
