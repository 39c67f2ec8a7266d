package normalize

import "strings"

// shIsAssign reports whether w is a NAME=value (or NAME+=value) word.
func shIsAssign(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		case c == '=':
			return i > 0
		case c == '+':
			return i > 0 && i+1 < len(w) && w[i+1] == '='
		default:
			return false
		}
	}
	return false
}

// shBase is the last element of a command word: "/usr/bin/curl" gives
// "curl", "./run.sh" gives "run.sh", "/" gives "".
func shBase(w string) string {
	for len(w) > 0 && w[len(w)-1] == '/' {
		w = w[:len(w)-1]
	}
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}

// shVerb is the verb of a command word: its base name, where only slashes
// outside expansions count ("$VENV/bin/python" gives "python"). When the
// name left still holds a slash inside an expansion, as in
// "$(curl https://x/install.sh)", the verb is a placeholder for the kind of
// expansion ("$(…)", "`…`" or "${…}"): a verb never contains a slash.
func shVerb(w string) string {
	if !shHasByte(w, '$') && !shHasByte(w, '`') {
		return shBase(w)
	}
	for len(w) > 0 && w[len(w)-1] == '/' {
		w = w[:len(w)-1]
	}
	depth, quoted, last := 0, false, -1
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '`':
			quoted = !quoted
		case '(', '{':
			if depth > 0 || (i > 0 && w[i-1] == '$') {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth == 0 && !quoted {
				last = i
			}
		}
	}
	base := w[last+1:]
	if strings.IndexByte(base, '/') < 0 {
		return base
	}
	switch {
	case strings.Contains(base, "$("):
		return "$(…)"
	case strings.IndexByte(base, '`') >= 0:
		return "`…`"
	default:
		return "${…}"
	}
}

// call adds the simple command made of words (assignments already removed):
// it strips wrappers, parses a shell's -c payload in place of the shell, and
// records the files the command writes. It reports whether words were
// replaced by a parsed payload.
func (b *shBuilder) call(words []string, depth int) bool {
	if b.full() {
		return false
	}
	if len(words) == 0 {
		b.addCommand("", nil)
		return false
	}
	words = shUnwrap(words)
	verb := shVerb(words[0])
	args := words[1:]
	if shIsShell(verb) && !b.noReparse && depth < shellMaxPayloadDepth {
		if payload, ok := shShellPayload(args); ok {
			b.text(payload, depth+1)
			return true
		}
	}
	b.addCommand(verb, args)
	b.wordSinks(verb, args)
	return false
}

// shIsShell reports whether verb is a shell whose -c payload is bash-like
// enough to parse.
func shIsShell(verb string) bool {
	switch verb {
	case "bash", "sh", "zsh", "dash", "ksh", "ash":
		return true
	}
	return false
}

// shShellPayload finds the command string of `bash [options] -c STRING`:
// -c may be grouped with other letters (-lc, -ec, -xec) and come before
// other options (-c -e); -o and -O take a value (-euo pipefail), as do
// --rcfile and --init-file.
func shShellPayload(args []string) (string, bool) {
	c := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || w == "-" {
			if c && i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		}
		if len(w) > 1 && (w[0] == '-' || w[0] == '+') {
			if strings.HasPrefix(w, "--") {
				if w == "--rcfile" || w == "--init-file" {
					i++
				}
				continue
			}
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'c':
					c = w[0] == '-'
				case 'o', 'O':
					if j == len(w)-1 {
						i++
					}
				}
			}
			continue
		}
		if c {
			return w, true
		}
		return "", false
	}
	return "", false
}

// shWrapper describes a command that runs another command given after its
// own options.
type shWrapper struct {
	opts *optTable
	// assigns: NAME=value words may come between the options and the
	// command (env, sudo).
	assigns bool
	// loneDash: a "-" operand is an option (env's old spelling of -i).
	loneDash bool
	// operands is the number of words the wrapper itself takes after its
	// options (timeout's duration).
	operands int
	// notRunning lists options with which the wrapper runs nothing (command
	// -v looks a name up; sudo -l lists rights).
	notRunning map[string]bool
}

func shSet(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

var shWrappers = map[string]*shWrapper{
	"sudo": {
		opts: newOpts(false,
			"-u= --user= -g= --group= -p= --prompt= -C= --close-from= -r= --role= -t= --type=",
			"-U= --other-user= -D= --chdir= -R= --chroot= -T= --command-timeout= --host=",
			"--preserve-env[=]").stopping(),
		assigns:    true,
		notRunning: shSet("-l --list -e --edit -v --validate -V --version -K --remove-timestamp -h --help"),
	},
	"env": {
		opts: newOpts(false,
			"-u= --unset= -C= --chdir= -S= --split-string= --default-signal[=] --ignore-signal[=]",
			"--block-signal[=]").stopping(),
		assigns:    true,
		loneDash:   true,
		notRunning: shSet("--help --version --list-signal-handling"),
	},
	"timeout": {opts: newOpts(false, "-s= --signal= -k= --kill-after=").stopping(), operands: 1},
	"nohup":   {opts: newOpts(false).stopping()},
	"nice":    {opts: newOpts(false, "-n= --adjustment=").stopping()},
	"ionice": {
		opts:       newOpts(false, "-c= --class= -n= --classdata= -p= --pid= -P= --pgid= -u= --uid=").stopping(),
		notRunning: shSet("-p --pid -P --pgid -u --uid"),
	},
	"time":    {opts: newOpts(false, "-f= --format= -o= --output=").stopping()},
	"command": {opts: newOpts(false).stopping(), notRunning: shSet("-v -V")},
	"exec":    {opts: newOpts(false, "-a=").stopping()},
	"stdbuf":  {opts: newOpts(false, "-i= --input= -o= --output= -e= --error=").stopping()},
}

// IsWrapper reports whether name is a command that ParseShell removes in
// front of the command it runs (sudo, env, timeout, nohup, nice, ionice,
// time, command, exec, stdbuf). It is safe for concurrent use.
func IsWrapper(name string) bool { return shWrapperOf(name) != nil }

// ShellPayload returns the command string of a command given as words,
// `[NAME=value...] SHELL [options] -c STRING [args]`, for the shells whose
// payload ParseShell parses in their place (bash, sh, zsh, dash, ksh, ash,
// named by any path). ok is false for any other command. It is safe for
// concurrent use.
func ShellPayload(words []string) (payload string, ok bool) {
	i := 0
	for i < len(words) && shIsAssign(words[i]) {
		i++
	}
	if i >= len(words) || !shIsShell(shBase(words[i])) {
		return "", false
	}
	return shShellPayload(words[i+1:])
}

// shWrapperOf returns the wrapper named name, or nil. Most commands are no
// wrapper, and a switch tells them faster than the map does.
func shWrapperOf(name string) *shWrapper {
	switch name {
	case "sudo", "env", "timeout", "nohup", "nice", "ionice", "time", "command", "exec", "stdbuf":
		return shWrappers[name]
	}
	return nil
}

// shUnwrap removes wrappers from the front of words, however they stack
// (sudo timeout 5 nice -n 10 cmd), up to 16 of them. A wrapper with nothing
// to run (a bare `sudo -i`, `env`, `exec` with only redirections) is itself
// the command.
func shUnwrap(words []string) []string {
	for range 16 {
		if len(words) < 2 {
			return words
		}
		wr := shWrapperOf(shBase(words[0]))
		if wr == nil {
			return words
		}
		rest, ok := wr.strip(words[1:])
		if !ok || len(rest) == 0 {
			return words
		}
		words = rest
	}
	return words
}

// strip returns the command that w runs, given the words after w's name.
func (w *shWrapper) strip(args []string) ([]string, bool) {
	running := true
	var split string // env -S STRING
	i := scanOpts(w.opts, args, func(name, value string) bool {
		if w.notRunning[name] {
			running = false
			return false
		}
		if name == "-S" || name == "--split-string" {
			split = value
		}
		return true
	}, nil)
	if !running {
		return nil, false
	}
	if w.loneDash && i < len(args) && args[i] == "-" {
		i++
	}
	if w.assigns {
		for i < len(args) && shIsAssign(args[i]) {
			i++
		}
	}
	i += w.operands
	if i > len(args) {
		return nil, false
	}
	rest := args[i:]
	if split != "" {
		f := strings.Fields(split)
		rest = append(f[:len(f):len(f)], rest...)
	}
	return rest, true
}

var teeOpts = newOpts(false, "--output-error[=]")

// wordSinks records the output files named by a command's own options or
// operands.
func (b *shBuilder) wordSinks(verb string, args []string) {
	switch verb {
	case "tee":
		scanOpts(teeOpts, args, nil, func(i int) bool {
			b.addSink(args[i])
			return true
		})
	case "curl":
		scanOpts(curlSpec.opts, args, func(name, value string) bool {
			if name == "-o" || name == "--output" {
				b.addSink(value)
			}
			return true
		}, nil)
	case "wget":
		scanOpts(wgetSpec.opts, args, func(name, value string) bool {
			if name == "-O" || name == "--output-document" {
				b.addSink(value)
			}
			return true
		}, nil)
	}
}
