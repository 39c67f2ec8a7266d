package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes of the command.
const (
	exitOK    = 0 // success
	exitError = 1 // a trace or configuration error, reported with its file
	exitUsage = 2 // an unknown subcommand, a bad flag or a missing argument
)

// usageText is the help text of the program.
const usageText = `loopbreaker replays recorded agent traces through the loop breaker,
explains how a tool call is fingerprinted, and checks configuration files.

Usage:
  loopbreaker replay [-config FILE] [-json] [-approve] TRACE.jsonl|DIR...
  loopbreaker explain [-config FILE] TOOL 'ARGS_JSON'
  loopbreaker check-config FILE
  loopbreaker version
  loopbreaker help [COMMAND]

Exit status: 0 on success, 1 for a trace or configuration error, 2 for a
usage error. Run "loopbreaker help COMMAND" for a command's flags.
`

// main runs the command line and exits with its status.
func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand: its name, usage text and entry point.
type command struct {
	name  string
	usage string
	run   func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands; it is filled in by init to break the
// reference cycle through help.
var commands []command

// init fills in commands.
func init() {
	commands = []command{
		{"replay", replayUsage, runReplay},
		{"explain", explainUsage, runExplain},
		{"check-config", checkConfigUsage, runCheckConfig},
		{"version", versionUsage, runVersion},
		{"help", helpUsage, runHelp},
	}
}

// lookup returns the subcommand called name, or nil.
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// run executes the command line args (without the program name), writing
// results to stdout and diagnostics to stderr, and returns the exit code.
// It never panics: a failure inside a subcommand is reported as an internal
// error with exit code 1.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "loopbreaker: internal error: %v\n", r)
			code = exitError
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "loopbreaker: unknown command %q\n\n%s", args[0], usageText)
		return exitUsage
	}
	return cmd.run(args[1:], stdout, stderr)
}

// helpUsage is the help text of help.
const helpUsage = `Usage: loopbreaker help [COMMAND]

Prints the usage of loopbreaker or of one of its commands.
`

// runHelp prints the usage of the program or of one command.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usageText)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(stderr, "loopbreaker: help: want at most one command, got %d arguments\n\n%s", len(args), helpUsage)
		return exitUsage
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "loopbreaker: help: unknown command %q\n\n%s", args[0], usageText)
		return exitUsage
	}
	fmt.Fprint(stdout, cmd.usage)
	return exitOK
}
