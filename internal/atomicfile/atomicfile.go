// Package atomicfile writes files the one way plankit writes any file: the
// whole content goes to a temporary file in the target's directory, is
// synced to disk and renamed over the target, so a reader sees the old file
// or the new one, never a part; and a symbolic link at the target is refused,
// so a link planted where plankit writes (a report path, a counterexample
// name) cannot redirect the write to another file.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrSymlink is wrapped by the error for a target that is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link; plankit does not write through symbolic links")

// Mode is the permission of every file plankit writes.
const Mode fs.FileMode = 0o644

// Check reports whether path can be written: the target is not a symbolic
// link (nor anything but a regular file, when it exists) and its directory
// exists. It is what commands call before a run, to fail fast.
func Check(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return &fs.PathError{Op: "write", Path: path, Err: ErrSymlink}
	case err == nil && !fi.Mode().IsRegular():
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("exists and is not a regular file")}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("directory %s: %w", dir, unwrapPath(err))}
	}
	if !di.IsDir() {
		return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("%s is not a directory", dir)}
	}
	return nil
}

// CheckWritable is Check plus proof that the directory accepts a new file:
// it creates and removes a temporary file there.
func CheckWritable(path string) error {
	if err := Check(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.probe")
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// Write writes data to path atomically. A symbolic link at path is refused
// (the error wraps ErrSymlink) and left as it was.
func Write(path string, data []byte) (err error) {
	if err := Check(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(Mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	// Check again just before the rename: rename replaces a link at path
	// with the file (it never follows it), but a link that appeared since
	// the first check is still refused rather than silently replaced.
	if err = Check(path); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it; a
// directory that cannot be synced (some file systems, Windows) is not an
// error, the rename itself having succeeded.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
