package main

import (
	"io"
)

// checkConfigUsage is the help text of check-config.
const checkConfigUsage = `Usage: loopbreaker check-config FILE

Validates the JSON configuration FILE and prints the effective
configuration: the file's settings with every default filled in, in the
form the file itself may use. An invalid file gets every problem listed on
standard error, one a line, and exit status 1.
`

// runCheckConfig validates a configuration file and prints its effective
// configuration.
func runCheckConfig(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check-config", checkConfigUsage, stderr)
	if code, done := parseFlags(fs, checkConfigUsage, args, stdout); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		return usageError(stderr, "check-config", checkConfigUsage, "no configuration file given")
	case 1:
	default:
		return usageError(stderr, "check-config", checkConfigUsage, "want one configuration file, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	cfg, ok := loadConfig(path, stderr)
	if !ok {
		return exitError
	}
	out, err := cfg.JSON()
	if err != nil {
		// LoadConfig validated cfg, so this is not expected; report it all
		// the same.
		printErrors(stderr, path, err)
		return exitError
	}
	if _, err := stdout.Write(out); err != nil {
		printErrors(stderr, "", err)
		return exitError
	}
	return exitOK
}
