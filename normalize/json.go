package normalize

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Limits of [AppendCanonical]. Values nested deeper than MaxDepth, and
// everything after MaxNodes values or MaxCanonicalBytes of output, are
// replaced by the marker "…", so that a value containing itself, or a small
// value that shares one sub-value many times, renders in bounded time and
// space.
const (
	MaxDepth          = 64
	MaxNodes          = 1 << 16
	MaxCanonicalBytes = 8 << 20
)

// truncMarker stands in for what the limits cut off.
const truncMarker = `"…"`

// AppendCanonical appends the canonical JSON form of v to dst and returns the
// extended buffer. Object keys are sorted at every depth, strings are escaped
// the same way whatever their source, json.Number keeps its spelling, and
// invalid UTF-8 is replaced by U+FFFD. Keys of the top-level object for which
// skip reports true are left out (skip may be nil). v may be anything that
// encoding/json decodes into, plus Go maps with string keys, slices, arrays,
// pointers and scalars; other values render as their type name.
//
// AppendCanonical is safe for concurrent use and never panics on values that
// do not change while it runs.
func AppendCanonical(dst []byte, v any, skip func(key string) bool) []byte {
	return AppendCanonicalLimit(dst, v, skip, MaxCanonicalBytes)
}

// AppendCanonicalLimit is [AppendCanonical] with a smaller output budget:
// once about limit bytes are written, the rest is replaced by markers. It
// serves previews of large values.
func AppendCanonicalLimit(dst []byte, v any, skip func(key string) bool, limit int) []byte {
	e := canonEncoder{buf: dst, start: len(dst), limit: min(limit, MaxCanonicalBytes)}
	if m, ok := v.(map[string]any); ok && skip != nil {
		e.object(m, 0, skip)
	} else {
		e.value(v, 0)
	}
	return e.buf
}

type canonEncoder struct {
	buf   []byte
	start int
	limit int
	nodes int
	// path holds the containers on the way to the current value, to cut
	// cycles short without waiting for MaxDepth.
	path []uintptr
}

// spent reports whether the node or size budget is used up; once it is, the
// encoder writes only markers.
func (e *canonEncoder) spent() bool {
	e.nodes++
	return e.nodes > MaxNodes || len(e.buf)-e.start > e.limit
}

func (e *canonEncoder) value(v any, depth int) {
	if depth > MaxDepth || e.spent() {
		e.buf = append(e.buf, truncMarker...)
		return
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		if room := e.limit - (len(e.buf) - e.start); len(x) > room {
			// Only part of the string fits the budget.
			cut := max(room, 0)
			for cut > 0 && !utf8.RuneStart(x[cut]) {
				cut--
			}
			e.buf = AppendQuoted(e.buf, x[:cut]+"…")
			return
		}
		e.buf = AppendQuoted(e.buf, x)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case json.Number:
		e.number(string(x))
	case float64:
		e.float(x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case map[string]any:
		e.object(x, depth, nil)
	case []any:
		if e.enter(reflect.ValueOf(x)) {
			return
		}
		e.buf = append(e.buf, '[')
		for i, item := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(item, depth+1)
		}
		e.buf = append(e.buf, ']')
		e.leave()
	case []string:
		e.buf = append(e.buf, '[')
		for i, item := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = AppendQuoted(e.buf, item)
		}
		e.buf = append(e.buf, ']')
	default:
		e.reflected(reflect.ValueOf(v), depth)
	}
}

func (e *canonEncoder) number(s string) {
	// A json.Number built by hand may hold anything; keep only real numbers
	// as numbers.
	if json.Valid([]byte(s)) && s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		e.buf = append(e.buf, s...)
		return
	}
	e.buf = AppendQuoted(e.buf, s)
}

func (e *canonEncoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.buf = AppendQuoted(e.buf, strconv.FormatFloat(f, 'g', -1, 64))
		return
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		e.buf = strconv.AppendFloat(e.buf, f, 'f', -1, 64)
		return
	}
	e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
}

func (e *canonEncoder) object(m map[string]any, depth int, skip func(string) bool) {
	if e.enter(reflect.ValueOf(m)) {
		return
	}
	var small [16]string
	keys := small[:0]
	for k := range m {
		if skip == nil || !skip(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = AppendQuoted(e.buf, k)
		e.buf = append(e.buf, ':')
		e.value(m[k], depth+1)
	}
	e.buf = append(e.buf, '}')
	e.leave()
}

// enter records a container on the path; it reports true (and writes the
// marker) when the container is already on it, which means v contains
// itself.
func (e *canonEncoder) enter(v reflect.Value) bool {
	p := v.Pointer()
	if p != 0 && slices.Contains(e.path, p) {
		e.buf = append(e.buf, truncMarker...)
		return true
	}
	e.path = append(e.path, p)
	return false
}

func (e *canonEncoder) leave() { e.path = e.path[:len(e.path)-1] }

// reflected renders the values encoding/json never produces.
func (e *canonEncoder) reflected(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Invalid:
		e.buf = append(e.buf, "null"...)
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		e.float(v.Float())
	case reflect.String:
		e.buf = AppendQuoted(e.buf, v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		if v.Kind() == reflect.Pointer && e.enter(v) {
			return
		}
		e.value(v.Elem().Interface(), depth+1)
		if v.Kind() == reflect.Pointer {
			e.leave()
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice {
			if v.IsNil() {
				e.buf = append(e.buf, "null"...)
				return
			}
			if e.enter(v) {
				return
			}
			defer e.leave()
		}
		e.buf = append(e.buf, '[')
		for i := range v.Len() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(v.Index(i).Interface(), depth+1)
		}
		e.buf = append(e.buf, ']')
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			e.buf = AppendQuoted(e.buf, v.Type().String())
			return
		}
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		if e.enter(v) {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return stringsCompare(a.String(), b.String())
		})
		e.buf = append(e.buf, '{')
		for i, k := range keys {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = AppendQuoted(e.buf, k.String())
			e.buf = append(e.buf, ':')
			e.value(v.MapIndex(k).Interface(), depth+1)
		}
		e.buf = append(e.buf, '}')
		e.leave()
	default:
		e.buf = AppendQuoted(e.buf, "<"+v.Type().String()+">")
	}
}

func stringsCompare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON string. Invalid UTF-8 becomes U+FFFD;
// control characters, quotes and backslashes are escaped; everything else is
// written as is.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\r':
				dst = append(dst, '\\', 'r')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
