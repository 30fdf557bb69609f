package adapter

import (
	"bytes"
	"fmt"

	"github.com/plankit/plankit/internal/third_party/jsonschema"
)

// The strict checks of one protocol line, for the tests that hold the
// documented lines and wrong messages to the schemas. The driver and the
// server check lines as they go (checkRequest, Port.checkReply).

// ValidateRequest checks a request line against the strict schemas.
func ValidateRequest(line []byte) error { return validateRequest(compiledSchemas, line) }

// ValidateReply checks a reply line to a request of method against the
// strict schemas.
func ValidateReply(method string, line []byte) error {
	return validateReply(compiledSchemas, method, line)
}

// ValidateRuntimeRequest checks a runtime-protocol request line against
// the strict schemas.
func ValidateRuntimeRequest(line []byte) error {
	return validateRequest(compiledRuntimeSchemas, line)
}

// ValidateRuntimeReply checks a runtime-protocol reply line to a request
// of method against the strict schemas.
func ValidateRuntimeReply(method string, line []byte) error {
	return validateReply(compiledRuntimeSchemas, method, line)
}

// validateRequest checks a request line against the strict schemas of a
// protocol.
func validateRequest(schemas protocolSchemas, line []byte) error {
	s, _, err := schemas()
	if err != nil {
		return err
	}
	return checkRequest(s, line)
}

// validateReply checks a reply line to a request of method against the
// strict schemas of a protocol.
func validateReply(schemas protocolSchemas, method string, line []byte) error {
	s, _, err := schemas()
	if err != nil {
		return err
	}
	return checkReply(s, method, line)
}

func checkReply(s *schemaSet, method string, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return checkReplyValue(s, method, v)
}
