package catalog

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// ServiceSource is the Go file, relative to the module root, whose
// Controller methods define the service catalog.
const ServiceSource = "reference/controller.go"

// ServiceMethods are the service's methods, in catalog order (SVC-1).
var ServiceMethods = []string{"Get", "Set"}

// Service is the plan-mode service surface as the reference declares it.
type Service struct {
	// Source is the file the methods were read from.
	Source  string   `json:"source"`
	Type    string   `json:"type"`
	Methods []Method `json:"methods"`
}

// Method is one service method: its Go signature and doc comment.
type Method struct {
	Name      string `json:"name"`
	Signature string `json:"signature"`
	Doc       string `json:"doc"`
}

//go:embed service.json
var serviceJSON []byte

// GeneratedService returns the service catalog as last generated (the
// committed service.json), for printing without the source at hand.
func GeneratedService() (Service, error) {
	var s Service
	if err := json.Unmarshal(serviceJSON, &s); err != nil {
		return s, fmt.Errorf("catalog/service.json: %v", err)
	}
	return s, nil
}

// ServiceFromSource reads the Controller's service methods and their doc
// comments from the reference's Go source in root (the module root).
func ServiceFromSource(root fs.FS) (Service, error) {
	src, err := fs.ReadFile(root, ServiceSource)
	if err != nil {
		return Service{}, fmt.Errorf("reading the service source: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, ServiceSource, src, parser.ParseComments)
	if err != nil {
		return Service{}, fmt.Errorf("parsing the service source: %w", err)
	}
	pkg, err := doc.NewFromFiles(fset, []*ast.File{f}, "github.com/plankit/plankit/"+path.Dir(ServiceSource), doc.AllMethods)
	if err != nil {
		return Service{}, fmt.Errorf("%s: %w", ServiceSource, err)
	}
	svc := Service{Source: ServiceSource, Type: "Controller"}
	var typ *doc.Type
	for _, t := range pkg.Types {
		if t.Name == svc.Type {
			typ = t
		}
	}
	if typ == nil {
		return Service{}, fmt.Errorf("%s: no type %s", ServiceSource, svc.Type)
	}
	for _, name := range ServiceMethods {
		i := slices.IndexFunc(typ.Methods, func(m *doc.Func) bool { return m.Name == name })
		if i < 0 {
			return Service{}, fmt.Errorf("%s: %s has no method %s", ServiceSource, svc.Type, name)
		}
		m := typ.Methods[i]
		if strings.TrimSpace(m.Doc) == "" {
			return Service{}, fmt.Errorf("%s: %s.%s has no doc comment (SVC-4 catalogs it)", ServiceSource, svc.Type, name)
		}
		decl := *m.Decl
		decl.Doc, decl.Body = nil, nil
		var sig bytes.Buffer
		if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&sig, fset, &decl); err != nil {
			return Service{}, err
		}
		svc.Methods = append(svc.Methods, Method{Name: name, Signature: sig.String(), Doc: m.Doc})
	}
	return svc, nil
}

// Block renders the service as one Go block: each method's doc comment and
// signature. It is the text shown wherever the service is documented, byte
// for byte (SVC-4).
func (s Service) Block() string {
	var b strings.Builder
	for i, m := range s.Methods {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, line := range strings.Split(strings.TrimRight(m.Doc, "\n"), "\n") {
			if line == "" {
				b.WriteString("//\n")
				continue
			}
			b.WriteString("// " + line + "\n")
		}
		b.WriteString(m.Signature + "\n")
	}
	return b.String()
}
