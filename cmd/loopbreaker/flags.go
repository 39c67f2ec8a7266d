package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loopbreaker/loopbreaker"
)

// newFlagSet returns a flag set for a subcommand whose errors go to stderr
// followed by usage.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), shortUsage(name, usage)) }
	return fs
}

// shortUsage is what a usage error prints after its message: the synopsis
// of the command (the first line of its usage) and where to read more.
func shortUsage(name, usage string) string {
	synopsis, _, _ := strings.Cut(usage, "\n")
	return synopsis + "\nRun \"loopbreaker help " + name + "\" for details.\n"
}

// parseFlags parses args into fs. When parsing ends the command (-h, or a
// bad flag) it reports done with the exit code: -h prints the usage to
// stdout and succeeds, a bad flag is a usage error.
func parseFlags(fs *flag.FlagSet, usage string, args []string, stdout io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, false
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return exitOK, true
	default:
		// The flag package has already printed the error and the usage.
		return exitUsage, true
	}
}

// usageError reports a usage problem of a subcommand and returns exitUsage.
func usageError(stderr io.Writer, name, usage, format string, args ...any) int {
	fmt.Fprintf(stderr, "loopbreaker: %s: %s\n%s", name, fmt.Sprintf(format, args...), shortUsage(name, usage))
	return exitUsage
}

// pathError rewrites an *os.PathError as "PATH: reason", without the name
// of the system call; other errors are returned as they are.
func pathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// printErrors writes err to stderr one problem a line, each prefixed with
// "loopbreaker: " and, when file is set, with the file's name: the library's
// own "loopbreaker: " prefix is moved in front of the file name.
func printErrors(stderr io.Writer, file string, err error) {
	for _, e := range flatten(err) {
		msg := strings.TrimPrefix(e.Error(), "loopbreaker: ")
		if file != "" {
			msg = file + ": " + msg
		}
		fmt.Fprintln(stderr, "loopbreaker: "+msg)
	}
}

// flatten splits errors joined with errors.Join (at any depth) into the
// single errors they hold, in order.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// loadConfig reads the JSON configuration file path with
// loopbreaker.LoadConfig; an empty path gives the default (zero) Config. On
// failure it reports every problem on stderr, naming the file, and ok is
// false.
func loadConfig(path string, stderr io.Writer) (cfg loopbreaker.Config, ok bool) {
	if path == "" {
		return loopbreaker.Config{}, true
	}
	f, err := os.Open(path)
	if err != nil {
		printErrors(stderr, "", pathError(err))
		return loopbreaker.Config{}, false
	}
	defer f.Close()
	cfg, err = loopbreaker.LoadConfig(f)
	if err != nil {
		printErrors(stderr, path, err)
		return loopbreaker.Config{}, false
	}
	return cfg, true
}
