package normalize

import "strings"

// This file holds the tables of "volatile" command-line options: options that
// change how a command presents its output, how long it waits or how often it
// retries, but not which resource it acts on. An agent stuck in a loop tends to
// churn exactly these (`curl -s`, then `curl -sS --max-time 60`, then
// `curl --retry 3`), so they are removed before calls are compared.
//
// The same option tables also tell the shell code which options take a value,
// so that `curl -H '-o x'` is not mistaken for an output file and `sudo -u bob
// cmd` finds `cmd`.

// argKind says whether a command-line option takes a value.
type argKind uint8

const (
	argNone     argKind = iota // a switch: -s, --silent
	argRequired                // --max-time=N, --max-time N, -mN, -m N
	argOptional                // a value only when attached: --porcelain=v2, -uno
)

// optRule describes one option of a command.
type optRule struct {
	arg      argKind
	volatile bool
	// ends is set for options after which every word belongs to something
	// else (python's -c CODE).
	ends bool
	// when, if set, narrows volatile to the values it accepts (git -c
	// color.ui=never is volatile, git -c user.name=x is not).
	when func(value string) bool
}

func (r optRule) isVolatile(value string) bool {
	return r.volatile && (r.when == nil || r.when(value))
}

// optTable is the option grammar of one command or subcommand.
type optTable struct {
	// singleDash is for commands whose options are whole words after one
	// dash (Go's flag package: -count=1; Maven: -ntp). Letters never cluster.
	singleDash bool
	// stopAtOperand ends the options at the first operand, as for wrappers
	// (`timeout 5 cmd -v`) or git before its subcommand.
	stopAtOperand bool
	// endWord is a word that, like "--", ends the options ("-args" for
	// go test).
	endWord string

	long  map[string]optRule // "--silent", and every option of a singleDash table
	short [128]optRule       // by letter, for clusters such as -sSL
	has   [128]bool
}

// rule finds the rule for a whole-word option name such as "--output" or,
// in a singleDash table, "-count" (also spelled "--count").
func (t *optTable) rule(name string) (optRule, bool) {
	if len(name) == 2 && name[0] == '-' && name[1] < 128 && !t.singleDash {
		c := name[1]
		return t.short[c], t.has[c]
	}
	r, ok := t.long[name]
	if !ok && t.singleDash && strings.HasPrefix(name, "--") {
		r, ok = t.long[name[1:]]
	}
	return r, ok
}

// newOpts builds a table from a compact description: options separated by
// spaces, each optionally prefixed with "~" (volatile) and suffixed with "="
// (takes a value) or "[=]" (takes a value only when attached). For example
// "~-s ~--silent ~-m= ~--max-time= -o= --output= --porcelain[=]".
func newOpts(singleDash bool, spec ...string) *optTable {
	t := &optTable{singleDash: singleDash, long: map[string]optRule{}}
	for _, s := range spec {
		for _, f := range strings.Fields(s) {
			var r optRule
			if strings.HasPrefix(f, "~") {
				r.volatile = true
				f = f[1:]
			}
			switch {
			case strings.HasSuffix(f, "[=]"):
				r.arg = argOptional
				f = strings.TrimSuffix(f, "[=]")
			case strings.HasSuffix(f, "="):
				r.arg = argRequired
				f = strings.TrimSuffix(f, "=")
			}
			t.set(f, r)
		}
	}
	return t
}

// set adds or replaces the rule for one option name.
func (t *optTable) set(name string, r optRule) *optTable {
	if !t.singleDash && len(name) == 2 && name[0] == '-' && name[1] < 128 {
		t.short[name[1]] = r
		t.has[name[1]] = true
		return t
	}
	t.long[name] = r
	return t
}

// with changes a rule already in the table (to add a predicate or mark it
// as ending the options).
func (t *optTable) with(name string, change func(*optRule)) *optTable {
	r, _ := t.rule(name)
	change(&r)
	return t.set(name, r)
}

func (t *optTable) stopping() *optTable { t.stopAtOperand = true; return t }

// cmdSpec is the option grammar of a command, possibly with subcommands.
type cmdSpec struct {
	opts *optTable
	// subFlag is an option whose value picks a sub-grammar for the words
	// after it ("-m" for python: python -m pytest ...).
	subFlag string
	// subs holds sub-grammars by subcommand (the first operand, as in
	// `git status`) or, with subFlag, by that option's value.
	subs map[string]*cmdSpec
	// anySub applies after a subcommand that subs does not list.
	anySub *cmdSpec
}

func (c *cmdSpec) sub(name string) *cmdSpec {
	if s, ok := c.subs[name]; ok {
		return s
	}
	return c.anySub
}

// Volatile options shared by several tables.
const (
	gitColorOpts = "~--color[=] ~--no-color"
)

// gitPresentationConfig reports whether a `git -c key=value` setting only
// changes how git prints (colours, pager, hints, path quoting).
func gitPresentationConfig(kv string) bool {
	key, _, _ := strings.Cut(kv, "=")
	key = strings.ToLower(key)
	switch {
	case strings.HasPrefix(key, "color."), strings.HasPrefix(key, "pager."),
		strings.HasPrefix(key, "advice."):
		return true
	}
	switch key {
	case "core.pager", "column.ui", "core.quotepath", "log.decorate":
		return true
	}
	return false
}

var (
	curlSpec = &cmdSpec{opts: newOpts(false,
		"~-s ~--silent ~-S ~--show-error ~-L ~--location ~--location-trusted",
		"~-v ~--verbose ~-f ~--fail ~--fail-with-body ~--fail-early ~-k ~--insecure",
		"~--compressed ~-# ~--progress-bar ~--no-progress-meter ~-i ~--include ~-N ~--no-buffer",
		"~-m= ~--max-time= ~--connect-timeout= ~--retry= ~--retry-delay= ~--retry-max-time=",
		"~--retry-all-errors ~--retry-connrefused",
		// Kept, but they take a value.
		"-A= --user-agent= -b= --cookie= -c= --cookie-jar= -C= --continue-at= -d= --data=",
		"--data-raw= --data-binary= --data-urlencode= --data-ascii= -D= --dump-header=",
		"-e= --referer= -E= --cert= -F= --form= --form-string= -H= --header= -K= --config=",
		"-o= --output= --output-dir= -P= --ftp-port= -Q= --quote= -r= --range= -T= --upload-file=",
		"-u= --user= -U= --proxy-user= -w= --write-out= -x= --proxy= -X= --request=",
		"-y= --speed-time= -Y= --speed-limit= -z= --time-cond= -t= --telnet-option= --url=",
		"--cacert= --capath= --key= --resolve= --connect-to= --interface= --json= --limit-rate=",
		"--max-filesize= --noproxy= --proto= --trace= --trace-ascii= --stderr= --unix-socket=",
		"--oauth2-bearer= --aws-sigv4= --variable= --max-redirs= --cert-type= --key-type=",
	)}

	wgetSpec = &cmdSpec{opts: newOpts(false,
		"~-q ~--quiet ~-v ~--verbose ~--no-verbose ~--show-progress ~--progress=",
		"~-t= ~--tries= ~-T= ~--timeout= ~--read-timeout= ~--connect-timeout= ~--dns-timeout=",
		"~--waitretry= ~--retry-connrefused ~--retry-on-http-error= ~--no-check-certificate",
		"~-w= ~--wait= ~--random-wait",
		// -n takes the rest of the cluster: -nv, -nc, -nd, -nH, -np.
		"~-n=",
		"-O= --output-document= -o= --output-file= -a= --append-output= -P= --directory-prefix=",
		"-U= --user-agent= --header= -e= --execute= -i= --input-file= -B= --base= -l= --level=",
		"-D= --domains= -A= --accept= -R= --reject= -X= -I= -Q= --quota= --user= --password=",
		"--post-data= --post-file= --method= --body-data= --body-file=",
	).with("-n", func(r *optRule) { r.when = func(v string) bool { return v == "v" } })}

	httpieSpec = &cmdSpec{opts: newOpts(false,
		"~--timeout= ~-v ~--verbose ~--pretty= ~-s= ~--style= ~-q ~--quiet",
		"-a= --auth= -A= --auth-type= -o= --output= -p= --print= --session= --session-read-only=",
		"--verify= --cert= --cert-key= --proxy= --max-redirects=",
	)}

	pytestSpec = &cmdSpec{opts: newOpts(false,
		"~-q ~--quiet ~-v ~--verbose ~-s ~--capture= ~--tb= ~--no-header ~--no-summary",
		"~--color= ~--code-highlight= ~--disable-warnings ~--disable-pytest-warnings",
		"~-l ~--showlocals ~--durations= ~--durations-min= ~--timeout=",
		"-k= -m= -p= -c= -o= -W= -r= -n= --rootdir= --basetemp= --confcutdir= --deselect= --ignore=",
		"--ignore-glob= --maxfail= --junitxml= --junit-xml= --cov= --cov-report= --log-level=",
		"--log-cli-level= --override-ini= --import-mode= --dist=",
	)}

	pipSpec = &cmdSpec{opts: newOpts(false,
		"~-q ~--quiet ~-v ~--verbose ~--no-cache-dir ~--disable-pip-version-check ~--no-color",
		"~--progress-bar= ~--timeout= ~--retries= ~--default-timeout= ~--root-user-action= ~--no-input",
		"-r= --requirement= -c= --constraint= -e= --editable= -t= --target= -i= --index-url=",
		"--extra-index-url= -f= --find-links= --prefix= --root= --python= --src= --upgrade-strategy=",
		"--platform= --python-version= --implementation= --abi= --only-binary= --no-binary=",
		"--trusted-host= --cert= --client-cert= --proxy= --log= --cache-dir= --exists-action=",
	)}

	gitSpec = &cmdSpec{
		opts: newOpts(false,
			"~--no-pager ~-P ~-p ~--paginate ~--no-optional-locks ~-c=",
			"-C= --git-dir= --work-tree= --namespace= --exec-path[=] --config-env= --super-prefix=",
		).with("-c", func(r *optRule) { r.when = gitPresentationConfig }).stopping(),
		subs: map[string]*cmdSpec{
			"status": {opts: newOpts(false, gitColorOpts,
				"~-s ~--short ~-b ~--branch ~--porcelain[=] ~--long ~-v ~--verbose ~--show-stash",
				"~--ahead-behind ~--no-ahead-behind ~--column[=] ~--no-column",
				"-u[=] --untracked-files[=] --ignored[=] --ignore-submodules[=] --find-renames[=]",
			)},
		},
		anySub: &cmdSpec{opts: newOpts(false, gitColorOpts)},
	}

	goSpec = &cmdSpec{
		opts: newOpts(true, "-C=").stopping(),
		subs: map[string]*cmdSpec{
			"test": {opts: func() *optTable {
				t := newOpts(true,
					"~-v ~-count= ~-timeout=",
					"-run= -bench= -benchtime= -cpu= -parallel= -coverprofile= -covermode= -coverpkg=",
					"-tags= -o= -exec= -p= -ldflags= -gcflags= -mod= -cpuprofile= -memprofile= -outputdir=",
					"-shuffle= -skip= -fuzz= -fuzztime= -list= -vet= -blockprofile= -mutexprofile= -trace=",
					"-modfile= -overlay= -pgo= -asmflags= -C=",
				)
				t.endWord = "-args"
				return t
			}()},
		},
	}

	npmOpts = "~--silent ~-s ~--no-fund ~--no-audit ~--loglevel= ~--yes ~-y ~-q ~--quiet " +
		"~--no-progress ~--progress[=] ~--color[=] ~--no-color ~--no-update-notifier ~--reporter="
	npmSpec = &cmdSpec{opts: newOpts(false, npmOpts,
		"-w= --workspace= --prefix= -C= --dir= --filter= --registry= --tag= --cwd=")}
	npxSpec = &cmdSpec{opts: newOpts(false, npmOpts, "-p= --package= -c= --call=").stopping()}

	aptSpec = &cmdSpec{opts: newOpts(false,
		"~-y ~--yes ~--assume-yes ~-q ~--quiet[=]",
		"-o= --option= -t= --target-release= -c= --config-file=")}

	grepSpec = &cmdSpec{opts: newOpts(false,
		"~--color[=] ~--colour[=]",
		"-e= --regexp= -f= --file= -m= --max-count= -A= --after-context= -B= --before-context=",
		"-C= --context= -d= --directories= -D= --devices= --include= --exclude= --exclude-dir=",
		"--exclude-from= --label= --binary-files=")}

	rgSpec = &cmdSpec{opts: newOpts(false,
		"~--color= ~--colors=",
		"-e= --regexp= -f= --file= -g= --glob= --iglob= -t= --type= -T= --type-not= -m= --max-count=",
		"-A= --after-context= -B= --before-context= -C= --context= -j= --threads= -M= --max-columns=",
		"--sort= --sortr= --max-depth= -d= --type-add= -E= --encoding= --ignore-file= -r= --replace=")}

	mvnSpec = &cmdSpec{opts: newOpts(true,
		"~-q ~--quiet ~-B ~--batch-mode ~-e ~--errors ~-ntp ~--no-transfer-progress",
		"-f= --file= -pl= --projects= -rf= --resume-from= -T= --threads= -s= --settings=",
		"-gs= --global-settings= -P= --activate-profiles= -l= --log-file=")}

	cargoSpec = &cmdSpec{opts: newOpts(false,
		"~-q ~--quiet ~-v ~--verbose ~--color=",
		"-p= --package= -j= --jobs= -F= --features= --target= --manifest-path= --bin= --test=",
		"--example= --bench= --profile= -Z= --target-dir=")}

	pythonSpec = &cmdSpec{
		opts: newOpts(false, "~-u", "-m= -W= -X= -c=").
			with("-c", func(r *optRule) { r.ends = true }).stopping(),
		subFlag: "-m",
		subs:    map[string]*cmdSpec{"pytest": pytestSpec, "pip": pipSpec},
	}
)

// volatileSpecs maps a command's base name to its option grammar. To cover
// a new command, add a line here (and, for a subcommand, an entry in the
// parent's subs).
var volatileSpecs = map[string]*cmdSpec{
	"curl":    curlSpec,
	"wget":    wgetSpec,
	"http":    httpieSpec,
	"https":   httpieSpec,
	"xh":      httpieSpec,
	"xhs":     httpieSpec,
	"pytest":  pytestSpec,
	"py.test": pytestSpec,
	"pip":     pipSpec,
	"pip3":    pipSpec,
	"git":     gitSpec,
	"go":      goSpec,
	"npm":     npmSpec,
	"pnpm":    npmSpec,
	"yarn":    npmSpec,
	"npx":     npxSpec,
	"apt":     aptSpec,
	"apt-get": aptSpec,
	"grep":    grepSpec,
	"egrep":   grepSpec,
	"fgrep":   grepSpec,
	"rg":      rgSpec,
	"mvn":     mvnSpec,
	"mvnw":    mvnSpec,
	"cargo":   cargoSpec,
	"python":  pythonSpec,
	"python3": pythonSpec,
}

// specFor finds the grammar for a verb; python3.12 and friends share
// python's.
func specFor(verb string) *cmdSpec {
	verb = shBase(verb)
	if s, ok := volatileSpecs[verb]; ok {
		return s
	}
	if shIsPython(verb) {
		return pythonSpec
	}
	return nil
}

// shIsPython reports whether name is python, python3, python3.12, ...
func shIsPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// StripVolatile returns args without the options of verb that only change
// presentation, timing or retries (with their values): for curl, -s, -S,
// -L, --max-time 60 and --retry 3 go, while -o FILE, -H and the URL stay.
// A cluster such as -sSLo loses its volatile letters and keeps the rest
// (-o). Subcommands are recognised from the first words (git status,
// go test, python -m pytest); a git option placed before the subcommand,
// such as --no-pager, is stripped whatever the subcommand. Words after
// "--" are never touched.
//
// verb may be a path (/usr/bin/curl). Commands without a table get a plain
// copy of args. The result is a new slice, never longer than args; args is
// not modified. StripVolatile is safe for concurrent use.
func StripVolatile(verb string, args []string) []string {
	if args == nil {
		return nil
	}
	out, stripped := AppendStripVolatile(make([]string, 0, len(args)), verb, args)
	if !stripped {
		out = append(out, args...)
	}
	return out
}

// AppendStripVolatile is StripVolatile for callers that keep a buffer. When
// verb has a table, it appends the words of args that StripVolatile keeps to
// dst and returns the extended slice and true; otherwise it returns dst
// unchanged and false, and args stand as they are. It is safe for
// concurrent use.
func AppendStripVolatile(dst []string, verb string, args []string) ([]string, bool) {
	spec := specFor(verb)
	if spec == nil {
		return dst, false
	}
	return stripSpec(spec, args, dst, 0), true
}

// HasVolatileFlags reports whether StripVolatile has a table for verb, that
// is, whether it may remove anything from that command's arguments.
func HasVolatileFlags(verb string) bool { return specFor(verb) != nil }

// isOptWord reports whether w looks like an option (-x, --xy) rather than
// an operand; a lone "-" is an operand (standard input).
func isOptWord(w string) bool { return len(w) > 1 && w[0] == '-' }

// stripSpec appends to out the words of args that survive spec's volatile
// rules.
func stripSpec(spec *cmdSpec, args, out []string, depth int) []string {
	t := spec.opts
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || (t.endWord != "" && w == t.endWord) {
			return append(out, args[i:]...)
		}
		if !isOptWord(w) {
			if spec.subs != nil && spec.subFlag == "" {
				out = append(out, w)
				if sub := spec.sub(w); sub != nil && depth < 4 {
					return stripSpec(sub, args[i+1:], out, depth+1)
				}
				return append(out, args[i+1:]...)
			}
			if t.stopAtOperand {
				return append(out, args[i:]...)
			}
			out = append(out, w)
			continue
		}

		if t.singleDash || strings.HasPrefix(w, "--") {
			name, val, attached := strings.Cut(w, "=")
			r, known := t.rule(name)
			next := false
			if known && r.arg == argRequired && !attached && i+1 < len(args) {
				val, next = args[i+1], true
			}
			if known && name == spec.subFlag && (attached || next) {
				end := i + 1
				if next {
					end++
				}
				out = append(out, args[i:end]...)
				return stripSub(spec, val, args[end:], out, depth)
			}
			if known && r.isVolatile(val) {
				if next {
					i++
				}
				continue
			}
			out = append(out, w)
			if next {
				i++
				out = append(out, args[i])
			}
			if known && r.ends {
				return append(out, args[i+1:]...)
			}
			continue
		}

		// A cluster of short options: -sSL, -sSLo out, -qO-, -vv, -nv.
		var keep [32]byte
		kept := keep[:0]
		dropped := false   // some letter is volatile
		valueNext := false // the last letter took the following word as its value
		keepValue := false // ... and that letter is kept
		ends := false      // the option ends option parsing
		subVal := ""       // value of spec.subFlag, when found
		subAt := false     // spec.subFlag was found
		for j := 1; j < len(w); j++ {
			c := w[j]
			if c >= 128 || !t.has[c] {
				kept = append(kept, c)
				continue
			}
			r := t.short[c]
			if r.arg == argNone {
				if r.volatile {
					dropped = true
				} else {
					kept = append(kept, c)
				}
				continue
			}
			val := w[j+1:]
			valueNext = val == "" && r.arg == argRequired && i+1 < len(args)
			if valueNext {
				val = args[i+1]
			}
			isSub := len(spec.subFlag) == 2 && spec.subFlag[1] == c
			if r.isVolatile(val) && !isSub {
				dropped = true
				break
			}
			kept = append(kept, w[j:]...)
			keepValue, ends = true, r.ends
			if isSub {
				subAt, subVal = true, val
			}
			break
		}
		whole := !dropped || (len(kept) > 0 && kept[0] == '-')
		switch {
		case whole:
			// Unchanged, or a junk cluster such as -#-A whose remains
			// would read as a long option (--A): kept as written, with
			// its value.
			out = append(out, w)
			keepValue = valueNext
		case len(kept) > 0:
			out = append(out, "-"+string(kept))
		}
		if valueNext {
			i++
			if keepValue {
				out = append(out, args[i])
			}
		}
		if subAt {
			return stripSub(spec, subVal, args[i+1:], out, depth)
		}
		if ends {
			return append(out, args[i+1:]...)
		}
	}
	return out
}

// stripSub continues after spec's subFlag with the grammar its value picks,
// or copies the rest when there is none.
func stripSub(spec *cmdSpec, val string, rest, out []string, depth int) []string {
	if sub, ok := spec.subs[val]; ok && depth < 4 {
		return stripSpec(sub, rest, out, depth+1)
	}
	return append(out, rest...)
}

// scanOpts walks args under t: it calls opt for each option, one call per
// letter of a cluster, with its name ("-o", "--output") and value ("" if
// none), and operand for each operand with its index. Either callback may
// return false to stop. With t.stopAtOperand the walk stops at the first
// operand without calling operand. scanOpts returns the index where it
// stopped: the first operand then, otherwise len(args) (or the index of the
// word being looked at when a callback stopped it).
func scanOpts(t *optTable, args []string, opt func(name, value string) bool, operand func(i int) bool) int {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || (t.endWord != "" && w == t.endWord) {
			if t.stopAtOperand {
				return i + 1
			}
			for j := i + 1; j < len(args); j++ {
				if operand != nil && !operand(j) {
					return j
				}
			}
			return len(args)
		}
		if !isOptWord(w) {
			if t.stopAtOperand {
				return i
			}
			if operand != nil && !operand(i) {
				return i
			}
			continue
		}
		if t.singleDash || strings.HasPrefix(w, "--") {
			name, val, attached := strings.Cut(w, "=")
			r, known := t.rule(name)
			at := i
			if known && r.arg == argRequired && !attached && i+1 < len(args) {
				i++
				val = args[i]
			}
			if opt != nil && !opt(name, val) {
				return at
			}
			continue
		}
		at := i
		for j := 1; j < len(w); j++ {
			c := w[j]
			var r optRule
			if c < 128 && t.has[c] {
				r = t.short[c]
			}
			if r.arg == argNone {
				if opt != nil && !opt(shortName(c), "") {
					return at
				}
				continue
			}
			val := w[j+1:]
			if val == "" && r.arg == argRequired && i+1 < len(args) {
				i++
				val = args[i]
			}
			if opt != nil && !opt(shortName(c), val) {
				return at
			}
			break
		}
	}
	return len(args)
}

// shortNames holds "-a", "-b", ... so that scanning clusters does not build
// strings.
var shortNames = func() (n [128]string) {
	for c := range n {
		n[c] = "-" + string(rune(c))
	}
	return n
}()

// shortName is "-" followed by the option letter c.
func shortName(c byte) string {
	if c < 128 {
		return shortNames[c]
	}
	return string([]byte{'-', c})
}
