// Package pathcheck checks the paths a command is given before it runs
// anything, so that a report that cannot be written, a missing working
// directory or an unreadable manifest is an input error at once (exit 2),
// not after a long run. Every error names the flag and the path.
package pathcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safetext"
)

// Error is a path a flag names that cannot be used. The path is outside
// text: its message quotes it unless it is plain (safetext.Quote).
type Error struct {
	Flag, Path string
	Err        error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Flag, safetext.Quote(e.Path), e.Err)
}
func (e *Error) Unwrap() error { return e.Err }

func fail(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Flag: flag, Path: path, Err: err}
}

// OutputFile checks a file the command will write: its directory exists and
// accepts new files, and the path is not a symbolic link or a directory.
func OutputFile(flag, path string) error {
	if err := atomicfile.CheckWritable(path); err != nil {
		if errors.Is(err, atomicfile.ErrSymlink) {
			return fail(flag, path, atomicfile.ErrSymlink)
		}
		return fail(flag, path, err)
	}
	return nil
}

// InputFile checks a file the command will read: it exists, is a regular
// file and can be opened.
func InputFile(flag, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fail(flag, path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fail(flag, path, err)
	}
	if !fi.Mode().IsRegular() {
		return fail(flag, path, errors.New("not a regular file"))
	}
	return nil
}

// Dir checks a directory the command will use as it is: it exists and is a
// directory.
func Dir(flag, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fail(flag, path, errors.New("no such directory"))
		}
		return fail(flag, path, err)
	}
	if !fi.IsDir() {
		return fail(flag, path, errors.New("not a directory"))
	}
	return nil
}

// OutputDir checks a directory the command will write files into, creating
// it if need be: it is a directory if it exists, and otherwise its nearest
// existing parent is a directory that accepts new entries.
func OutputDir(flag, path string) error {
	p := filepath.Clean(path)
	for {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return fail(flag, path, fmt.Errorf("%s is not a directory", safetext.Quote(p)))
			}
			probe, err := os.MkdirTemp(p, ".plankit-probe-*")
			if err != nil {
				return fail(flag, path, err)
			}
			return os.Remove(probe)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fail(flag, path, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return fail(flag, path, err)
		}
		p = parent
	}
}
