package loopbreaker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// LoadConfig reads a configuration from a JSON object with camelCase keys:
//
//	window              integer
//	limits              object of integers; null means Off
//	localHosts          "ask", "deny" or "allow"
//	ignoreArgs          object of string lists, keyed by tool name
//	hostAliases         object of strings
//	exclude, include    string lists
//	shellTools          string list
//	changeTools         string list
//	previewChars        integer
//	resultPreviewChars  integer
//	maxAgents           integer; null means Off
//	idleTimeout         Go duration string ("30m") or a number of seconds;
//	                    "off" or null keeps idle agents
//	strict              true or false
//	failLimit           integer; null means Off
//	warnMargin          integer; null means Off
//	maxDenials          integer; null means Off
//
// The maps and lists mean what the fields of [Config] mean. A top-level list
// or map given as null is the same as the key left out (the default); inside
// ignoreArgs, a tool given null, like one given [], has its list emptied. "pathAliases" is accepted and
// ignored. Unknown keys, keys of older versions, duplicate keys, numbers that
// are not integers or do not fit in an int, and data after the object are
// errors.
//
// The returned Config holds only what the file set; every other field is
// zero, so [New] applies the defaults to it. LoadConfig also runs
// [Config.Validate]. On failure it returns the zero Config and every problem
// it found, joined with [errors.Join]. Each message starts with the prefix
// "loopbreaker: config:" followed by the offending key as a JSON path, such as
// limits.exact (problems of the whole document give a line and column
// instead). Problems with a well-formed value wrap a [*FieldError].
//
// LoadConfig reads r to its end. It keeps no state and is safe to call from
// several goroutines.
func LoadConfig(r io.Reader) (Config, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Config{}, &configError{msg: "reading: " + err.Error()}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte order mark some editors write
	if len(bytes.TrimSpace(data)) == 0 {
		return Config{}, &configError{msg: "empty input; want a JSON object"}
	}

	dec := json.NewDecoder(bytes.NewReader(data))
	var doc json.RawMessage
	if err := dec.Decode(&doc); err != nil {
		return Config{}, syntaxError(data, err)
	}
	var l loader
	if kind := jsonKind(doc); kind != "an object" {
		l.fail("", "want a JSON object, not %s", kind)
		return Config{}, errors.Join(l.errs...)
	}
	l.document(doc)
	if _, err := dec.Token(); err != io.EOF {
		l.fail("", "unexpected data after the JSON object")
	}
	for _, p := range l.cfg.problems() {
		l.errs = append(l.errs, &configError{path: p.at.jsonPath, msg: p.fieldError().detail(), field: p.fieldError()})
	}
	if len(l.errs) > 0 {
		return Config{}, errors.Join(l.errs...)
	}
	return l.cfg, nil
}

// syntaxError describes malformed JSON by line and column.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return &configError{msg: fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &configError{msg: "invalid JSON: unexpected end of input"}
	default:
		return &configError{msg: "invalid JSON: " + err.Error()}
	}
}

// position converts the offset of a json.SyntaxError, which counts the
// offending byte, into the 1-based line and column (in bytes) of that byte.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 1), int64(len(data)))
	before := data[:off-1]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// configKeys are the keys LoadConfig reads, in the order JSON writes them.
var configKeys = []string{
	"window", "limits", "localHosts", "ignoreArgs", "hostAliases", "exclude",
	"include", "shellTools", "changeTools", "previewChars",
	"resultPreviewChars", "maxAgents", "idleTimeout", "strict", "failLimit",
	"warnMargin", "maxDenials",
}

// removedKeys are keys of earlier designs, with what replaced them.
var removedKeys = map[string]string{
	"denyAfter":            "use limits (e.g. limits.exact)",
	"warnAfter":            "use warnMargin",
	"registerAdvisory":     "advice is built in (warnMargin); remove it",
	"maxSamePath":          "file actions are identified by position through exact: fingerprints; remove it",
	"readTools":            "use include/exclude",
	"matchReadBySubstring": "remove it; file reads are matched by exact: fingerprints",
}

// ignoredKeys are accepted for compatibility and have no effect.
var ignoredKeys = map[string]bool{"pathAliases": true}

// loader decodes one configuration document, collecting every problem.
type loader struct {
	cfg  Config
	errs []error
}

func (l *loader) fail(path, format string, args ...any) {
	l.errs = append(l.errs, &configError{path: path, msg: fmt.Sprintf(format, args...)})
}

// typeError reports a value of the wrong JSON type or form.
func (l *loader) typeError(path, want string, raw json.RawMessage) {
	l.fail(path, "must be %s, not %s (got %s)", want, jsonKind(raw), showJSON(raw))
}

func (l *loader) document(doc json.RawMessage) {
	l.members("", doc, func(key, path string, raw json.RawMessage) {
		c := &l.cfg
		switch key {
		case "window":
			c.Window, _ = l.integer(path, raw, false)
		case "limits":
			if isNull(raw) {
				return
			}
			c.Limits = map[string]int{}
			if !l.object(path, raw, func(k, p string, v json.RawMessage) {
				if n, ok := l.integer(p, v, true); ok {
					c.Limits[k] = n
				}
			}) {
				c.Limits = nil
			}
		case "localHosts":
			l.localHosts(path, raw)
		case "ignoreArgs":
			if isNull(raw) {
				return
			}
			c.IgnoreArgs = map[string][]string{}
			if !l.object(path, raw, func(k, p string, v json.RawMessage) {
				if list, ok := l.strings(p, v); ok {
					c.IgnoreArgs[k] = list
				}
			}) {
				c.IgnoreArgs = nil
			}
		case "hostAliases":
			if isNull(raw) {
				return
			}
			c.HostAliases = map[string]string{}
			if !l.object(path, raw, func(k, p string, v json.RawMessage) {
				var s string
				if jsonKind(v) != "a string" || json.Unmarshal(v, &s) != nil {
					l.typeError(p, "a host name string", v)
					return
				}
				c.HostAliases[k] = s
			}) {
				c.HostAliases = nil
			}
		case "exclude":
			c.Exclude, _ = l.strings(path, raw)
		case "include":
			c.Include, _ = l.strings(path, raw)
		case "shellTools":
			c.ShellTools, _ = l.strings(path, raw)
		case "changeTools":
			c.ChangeTools, _ = l.strings(path, raw)
		case "previewChars":
			c.PreviewChars, _ = l.integer(path, raw, false)
		case "resultPreviewChars":
			c.ResultPreviewChars, _ = l.integer(path, raw, false)
		case "maxAgents":
			c.MaxAgents, _ = l.integer(path, raw, true)
		case "idleTimeout":
			l.idleTimeout(path, raw)
		case "strict":
			if jsonKind(raw) != "a boolean" {
				l.typeError(path, "true or false", raw)
				return
			}
			c.Strict = bytes.Equal(bytes.TrimSpace(raw), []byte("true"))
		case "failLimit":
			c.FailLimit, _ = l.integer(path, raw, true)
		case "warnMargin":
			c.WarnMargin, _ = l.integer(path, raw, true)
		case "maxDenials":
			c.MaxDenials, _ = l.integer(path, raw, true)
		default:
			switch {
			case ignoredKeys[key]:
			case removedKeys[key] != "":
				l.fail(path, "no longer supported; %s", removedKeys[key])
			default:
				if s := suggest(key); s != "" {
					l.fail(path, "unknown key; did you mean %q?", s)
				} else {
					l.fail(path, "unknown key")
				}
			}
		}
	})
}

// members calls fn for every member of the JSON object raw (which must be
// well-formed JSON), with the member's JSON path. Duplicate keys are
// reported and skipped. It reports false if raw is not an object.
func (l *loader) members(path string, raw json.RawMessage, fn func(key, path string, val json.RawMessage)) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			l.fail(path, "invalid JSON object") // unreachable for well-formed input
			return true
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			l.fail(path, "invalid JSON object")
			return true
		}
		p := jsonKey(key)
		if path == "" {
			p = strings.TrimPrefix(p, ".")
		}
		p = path + p
		if seen[key] {
			l.fail(p, "duplicate key")
			continue
		}
		seen[key] = true
		fn(key, p, val)
	}
	return true
}

// object is members for a map-valued key: null is accepted as "not set",
// anything else that is not an object is an error. It reports whether raw
// was an object.
func (l *loader) object(path string, raw json.RawMessage, fn func(key, path string, val json.RawMessage)) bool {
	if isNull(raw) {
		return false
	}
	if jsonKind(raw) != "an object" {
		l.typeError(path, "an object", raw)
		return false
	}
	return l.members(path, raw, fn)
}

// integer decodes a whole number that fits in an int. With offOK, null
// means Off. It reports whether the value was valid.
func (l *loader) integer(path string, raw json.RawMessage, offOK bool) (int, bool) {
	want := "an integer"
	if offOK {
		want = "an integer or null (off)"
	}
	switch {
	case offOK && isNull(raw):
		return Off, true
	case jsonKind(raw) != "a number":
		l.typeError(path, want, raw)
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, strconv.IntSize)
	switch {
	case errors.Is(err, strconv.ErrRange):
		l.fail(path, "must fit in an int (got %s)", showJSON(raw))
		return 0, false
	case err != nil:
		l.fail(path, "must be a whole number, without fraction or exponent (got %s)", showJSON(raw))
		return 0, false
	}
	return int(n), true
}

// strings decodes a list of strings; null is nil, meaning the default.
func (l *loader) strings(path string, raw json.RawMessage) ([]string, bool) {
	if isNull(raw) {
		return nil, true
	}
	var items []json.RawMessage
	if jsonKind(raw) != "an array" || json.Unmarshal(raw, &items) != nil {
		l.typeError(path, "a list of strings", raw)
		return nil, false
	}
	list := make([]string, 0, len(items))
	ok := true
	for i, item := range items {
		var s string
		if jsonKind(item) != "a string" || json.Unmarshal(item, &s) != nil {
			l.typeError(path+"["+strconv.Itoa(i)+"]", "a string", item)
			ok = false
			continue
		}
		list = append(list, s)
	}
	if !ok {
		return nil, false
	}
	return list, true
}

func (l *loader) localHosts(path string, raw json.RawMessage) {
	var s string
	if jsonKind(raw) == "a string" && json.Unmarshal(raw, &s) == nil {
		for i, name := range localPolicyNames {
			if s == name {
				l.cfg.LocalHosts = LocalPolicy(i)
				return
			}
		}
		l.fail(path, `must be "ask", "deny" or "allow" (got %s)`, showJSON(raw))
		return
	}
	l.typeError(path, `"ask", "deny" or "allow"`, raw)
}

func (l *loader) idleTimeout(path string, raw json.RawMessage) {
	const want = `a duration such as "30m", a number of seconds, or "off"`
	var s string
	switch jsonKind(raw) {
	case "null":
		l.cfg.IdleTimeout = Off
		return
	case "a number":
		// Parsing "<number>s" as a duration keeps decimal seconds exact and
		// checks the range; exponents are refused with the message below.
		s = string(raw) + "s"
	case "a string":
		if json.Unmarshal(raw, &s) != nil {
			l.typeError(path, want, raw)
			return
		}
		if strings.EqualFold(strings.TrimSpace(s), "off") {
			l.cfg.IdleTimeout = Off
			return
		}
	default:
		l.typeError(path, want, raw)
		return
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		l.fail(path, "must be %s (got %s)", want, showJSON(raw))
		return
	}
	l.cfg.IdleTimeout = d
}

// jsonKind names the JSON type of a well-formed value, for messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch c := raw[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	default:
		return "a number"
	}
}

func isNull(raw json.RawMessage) bool { return jsonKind(raw) == "null" }

// showJSON renders a value for a message: compact and clipped.
func showJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return clip(string(raw), maxQuoted)
	}
	return clip(b.String(), maxQuoted)
}

// suggest returns the known key closest to an unknown one, if it is within
// two edits (ignoring case), or "".
func suggest(key string) string {
	best, bestDist := "", 3
	lk := strings.ToLower(key)
	for _, known := range configKeys {
		if d := editDistance(lk, strings.ToLower(known), bestDist); d < bestDist {
			best, bestDist = known, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b in runes, or limit
// when it is at least limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if abs(len(ra)-len(rb)) >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// configJSON is the form JSON writes, in the order of configKeys. Pointers
// are nil for Off, which is written null.
type configJSON struct {
	Window             int                 `json:"window"`
	Limits             map[string]*int     `json:"limits"`
	LocalHosts         string              `json:"localHosts"`
	IgnoreArgs         map[string][]string `json:"ignoreArgs"`
	HostAliases        map[string]string   `json:"hostAliases"`
	Exclude            []string            `json:"exclude"`
	Include            []string            `json:"include"`
	ShellTools         []string            `json:"shellTools"`
	ChangeTools        []string            `json:"changeTools"`
	PreviewChars       int                 `json:"previewChars"`
	ResultPreviewChars int                 `json:"resultPreviewChars"`
	MaxAgents          *int                `json:"maxAgents"`
	IdleTimeout        string              `json:"idleTimeout"`
	Strict             bool                `json:"strict"`
	FailLimit          *int                `json:"failLimit"`
	WarnMargin         *int                `json:"warnMargin"`
	MaxDenials         *int                `json:"maxDenials"`
}

// JSON writes the effective configuration of c, that is c with every default
// applied, in the indented camelCase form that [LoadConfig] reads: Off is
// written null and idleTimeout is a duration string (or "off"). Loading the
// output gives a Config with the same effective configuration. OnFault and
// OnDecision are not written.
//
// JSON returns the errors of [Config.Validate] if c is invalid, so its output
// always loads. It does not modify c.
func (c Config) JSON() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	e := c.withDefaults()
	offOr := func(n int) *int {
		if n == Off {
			return nil
		}
		return &n
	}
	out := configJSON{
		Window:             e.Window,
		Limits:             make(map[string]*int, len(e.Limits)),
		LocalHosts:         e.LocalHosts.String(),
		IgnoreArgs:         e.IgnoreArgs,
		HostAliases:        e.HostAliases,
		Exclude:            e.Exclude,
		Include:            e.Include,
		ShellTools:         e.ShellTools,
		ChangeTools:        e.ChangeTools,
		PreviewChars:       e.PreviewChars,
		ResultPreviewChars: e.ResultPreviewChars,
		MaxAgents:          offOr(e.MaxAgents),
		IdleTimeout:        "off",
		Strict:             e.Strict,
		FailLimit:          offOr(e.FailLimit),
		WarnMargin:         offOr(e.WarnMargin),
		MaxDenials:         offOr(e.MaxDenials),
	}
	for k, v := range e.Limits {
		out.Limits[k] = offOr(v)
	}
	if e.IdleTimeout > 0 {
		out.IdleTimeout = e.IdleTimeout.String()
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("loopbreaker: config: %w", err)
	}
	return b.Bytes(), nil
}
