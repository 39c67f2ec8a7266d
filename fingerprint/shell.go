package fingerprint

import (
	"strings"

	"github.com/loopbreaker/loopbreaker/normalize"
)

// fetchVerbs are the HTTP clients whose calls belong to family:http-fetch.
var fetchVerbs = map[string]bool{
	"curl": true, "wget": true, "http": true, "https": true, "httpie": true,
	"xh": true, "xhs": true, "aria2c": true,
}

// navigationVerbs only move around or wait; they are left out of cmd:
// fingerprints (unless a command has nothing else) and of verb: ones.
var navigationVerbs = map[string]bool{"cd": true, "pushd": true, "popd": true, "sleep": true, "": true}

func (a *Analyzer) shellPrints(an *Analysis, b *builder, lower string, args map[string]any) {
	var sh normalize.Shell
	var raw string
	switch c := firstOf(args, "command", "cmd").(type) {
	case string:
		raw = c
		if lower == "pwsh" || lower == "powershell" {
			sh = normalize.ParsePlain(c)
		} else {
			sh = normalize.ParseShell(c)
		}
	case []any:
		argv := make([]string, 0, len(c))
		for _, w := range c {
			if s, ok := w.(string); ok {
				argv = append(argv, s)
			}
		}
		raw = strings.Join(argv, " ")
		sh = normalize.ParseArgv(argv)
	default:
		return
	}
	an.Summary = clip(raw)

	var urls []normalize.URL
	for _, r := range normalize.ExtractURLs(raw) {
		if len(urls) == maxURLs {
			break
		}
		if u, ok := normalize.NormalizeURL(r, a.aliases); ok {
			urls = append(urls, u)
		}
	}
	fetchVerb := false
	for _, c := range sh.Commands {
		if fetchVerbs[c.Verb] {
			fetchVerb = true
		}
		if writesFiles(c) {
			an.Writes = true
		}
	}
	if len(sh.Sinks) > 0 {
		an.Writes = true
	}
	an.Fetch = fetchVerb || len(urls) > 0

	if text := a.commandText(sh); text != "" {
		b.add(Cmd, "cmd:"+text)
	}
	local := a.noteURLs(an, urls)
	if local && a.localAllow {
		return
	}
	a.urlPrints(b, urls)
	if a.sinkAlways || an.Fetch {
		for i, s := range sh.Sinks {
			if i == maxSinks {
				break
			}
			b.add(Sink, "sink:"+s)
		}
	}
	if fetchVerb {
		b.add(Family, "family:http-fetch")
	}
	verbs := 0
	for _, c := range sh.Commands {
		if navigationVerbs[c.Verb] || verbs == maxVerbs {
			continue
		}
		verbs++
		b.add(Verb, "verb:"+c.Verb)
	}
}

func firstOf(args map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := args[k]; ok {
			return v
		}
	}
	return nil
}

// commandText renders the commands of a parsed shell line in the form cmd:
// fingerprints compare: navigation steps left out, volatile flags removed,
// words quoted where they need it.
func (a *Analyzer) commandText(sh normalize.Shell) string {
	keep := sh.Commands[:0:0]
	for _, c := range sh.Commands {
		if !navigationVerbs[c.Verb] {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 {
		keep = sh.Commands
	}
	var sb strings.Builder
	for i, c := range keep {
		if i > 0 {
			sb.WriteString(" ; ")
		}
		sb.WriteString(c.Verb)
		for _, w := range normalize.StripVolatile(c.Verb, c.Args) {
			sb.WriteByte(' ')
			writeWord(&sb, w)
		}
	}
	return sb.String()
}

// writeWord writes w, single-quoted when it is empty or holds characters a
// shell would split or expand.
func writeWord(sb *strings.Builder, w string) {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\;&|<>()$`*?[]{}#~") {
		sb.WriteString(w)
		return
	}
	sb.WriteByte('\'')
	sb.WriteString(strings.ReplaceAll(w, "'", `'\''`))
	sb.WriteByte('\'')
}

// writesFiles reports whether a command changes files in place.
func writesFiles(c normalize.SimpleCommand) bool {
	switch c.Verb {
	case "mv", "cp", "rm", "mkdir", "touch", "chmod", "chown", "ln", "install", "rsync",
		"unzip", "truncate", "dd", "patch", "tee":
		return true
	case "sed", "perl":
		for _, w := range c.Args {
			if w == "-i" || strings.HasPrefix(w, "-i") && c.Verb == "sed" || strings.HasPrefix(w, "--in-place") || (c.Verb == "perl" && strings.HasPrefix(w, "-pi")) {
				return true
			}
		}
	case "git":
		if sub := firstArg(c.Args); sub != "" {
			switch sub {
			case "apply", "am", "checkout", "commit", "merge", "rebase", "reset", "restore",
				"revert", "stash", "cherry-pick", "switch", "pull", "rm", "mv", "add", "clean", "init", "clone":
				return true
			}
		}
	case "pip", "pip3", "npm", "pnpm", "yarn", "go", "cargo", "apt", "apt-get", "uv", "poetry", "bundle", "gem":
		switch firstArg(c.Args) {
		case "install", "i", "ci", "add", "uninstall", "remove", "get", "update", "upgrade", "sync":
			return true
		}
	}
	return false
}

// firstArg returns the first argument that is not an option.
func firstArg(args []string) string {
	for _, w := range args {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}
