package loopbreaker

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FieldError is one invalid configuration value, as reported by
// [Config.Validate] and [LoadConfig]; find it in their joined errors with
// [errors.As].
//
// Field is the Go path of the value, such as "Window", `Limits["exact"]`,
// `IgnoreArgs["bash"][2]` or "PreviewChars". Value is the offending value
// (for a bad map key, the key). Reason says what the value must be.
//
// The zero FieldError has no meaning. A FieldError is immutable once
// returned, so it is safe to share between goroutines.
type FieldError struct {
	Field  string // the Go field path, such as Limits["exact"]
	Value  any    // the invalid value
	Reason string // what a valid value is
}

// Error formats e as "loopbreaker: <Field>: <Reason> (got <Value>)", for
// example "loopbreaker: Window: must be 0 (default) or >= 4 (got 3)".
func (e *FieldError) Error() string {
	return "loopbreaker: " + e.Field + ": " + e.detail()
}

// detail is the message without the field: the reason and the value.
func (e *FieldError) detail() string {
	return e.Reason + " (got " + formatValue(e.Value) + ")"
}

// maxQuoted bounds the quoted values in messages; a configuration may hold
// long strings, and an error message should stay one readable line.
const maxQuoted = 64

func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(clip(v, maxQuoted))
	case fmt.Stringer:
		return v.String()
	default:
		return fmt.Sprint(v)
	}
}

// clip shortens s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// location is where a value sits in a Config, both as a Go field path and as
// a JSON path of the configuration file.
type location struct {
	goPath, jsonPath string
}

func field(goName, jsonName string) location { return location{goName, jsonName} }

// key locates the value of map key k: `Limits["exact"]` in Go, limits.exact
// in JSON (keys that are not plain words are quoted: hostAliases["m.x.com"]).
func (l location) key(k string) location {
	return location{l.goPath + "[" + strconv.Quote(k) + "]", l.jsonPath + jsonKey(k)}
}

// index locates element i of a list.
func (l location) index(i int) location {
	s := "[" + strconv.Itoa(i) + "]"
	return location{l.goPath + s, l.jsonPath + s}
}

// jsonKey is the JSON path step for member k.
func jsonKey(k string) string {
	if k == "" || k[len(k)-1] == ':' {
		return "[" + strconv.Quote(k) + "]"
	}
	for _, r := range k {
		plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '_' || r == '-' || r == ':'
		if !plain {
			return "[" + strconv.Quote(k) + "]"
		}
	}
	return "." + k
}

// configError is one problem of a configuration file, located by its JSON
// path ("" for the whole document). It wraps the FieldError of a value that
// was well-formed JSON but is invalid, so that errors.As finds it.
type configError struct {
	path  string
	msg   string
	field *FieldError
}

func (e *configError) Error() string {
	if e.path == "" {
		return "loopbreaker: config: " + e.msg
	}
	return "loopbreaker: config: " + e.path + ": " + e.msg
}

func (e *configError) Unwrap() error {
	if e.field == nil {
		return nil
	}
	return e.field
}
