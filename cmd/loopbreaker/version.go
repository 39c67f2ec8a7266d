package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// versionUsage is the help text of version.
const versionUsage = `Usage: loopbreaker version

Prints the version of the loopbreaker module this program was built from,
or "(devel)" when it was built without module version information.
`

// runVersion prints the module version from the build information.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", versionUsage, stderr)
	if code, done := parseFlags(fs, versionUsage, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "version", versionUsage, "unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintln(stdout, "loopbreaker "+moduleVersion())
	return exitOK
}

// moduleVersion returns the main module's version, or "(devel)".
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}
