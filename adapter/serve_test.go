package adapter_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/plankit/plankit/adapter"
)

// A request line longer than the limit is not a request: Serve reports it
// as ErrBadRequest (plankit serve exits 2), without reading it whole.
func TestServeRefusesAnOversizedLine(t *testing.T) {
	in := io.MultiReader(strings.NewReader(`{"seq":1,"method":"start","params":{"protocol":1}}`+"\n"),
		io.LimitReader(repeat('x'), adapter.MaxLine+1))
	var out bytes.Buffer
	err := adapter.Serve(in, &out, refPort(), adapter.ServeOptions{})
	if !errors.Is(err, adapter.ErrBadRequest) || !strings.Contains(err.Error(), "longer than the limit") {
		t.Fatalf("got %v", err)
	}
	if !strings.HasPrefix(out.String(), `{"seq":1,`) {
		t.Fatalf("the request before the long line was not answered: %q", out.String())
	}
}

type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
