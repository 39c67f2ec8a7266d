package loopbreaker

import (
	"errors"
	"io"
	"time"
)

// Off is a [Config.Limits] value (and a value of the other knobs that say so)
// that disables the limit.
const Off = -1

// LocalPolicy decides what happens when a call whose URLs are all local
// (localhost, loopback, private and link-local addresses) would be denied.
// The zero value is [LocalAsk].
type LocalPolicy uint8

const (
	// LocalAsk asks the human operator once per turn before denying a call
	// that only local traffic would deny. Unattended hosts should treat an
	// unanswered Ask as declined, which makes this fail closed.
	LocalAsk LocalPolicy = iota
	// LocalDeny counts and denies local calls like any other.
	LocalDeny
	// LocalAllow never fingerprints the targets of local calls.
	LocalAllow
)

// Config configures a [Breaker]. The zero Config is the documented default
// configuration (see [DefaultConfig]); every zero field means its default.
// A Config is a plain value and is copied by [New]; maps and slices given in
// it are not modified.
type Config struct {
	// Window is the number of recent calls per agent that count. 0 means 12;
	// otherwise it must be at least 4.
	Window int

	// Limits caps fingerprints, keyed by kind ("exact", "cmd", "net",
	// "sink", "site") or by a whole fingerprint ("family:http-fetch",
	// "verb:curl"). Entries are merged over the defaults; each value is Off
	// or at least 2.
	Limits map[string]int

	// LocalHosts decides what happens to calls that only touch local hosts.
	LocalHosts LocalPolicy

	// IgnoreArgs lists decoy argument names removed before fingerprinting,
	// keyed by tool name; "*" applies to every tool and a tool's own list
	// adds to it. A key given here replaces that key's default list.
	IgnoreArgs map[string][]string

	// HostAliases folds one host spelling into another before URLs are
	// compared. Entries are merged over the defaults.
	HostAliases map[string]string

	// Exclude names tools that are never counted and never reset a window;
	// Include, when non-empty, names the only tools that are counted. Names
	// match case-insensitively and may use * wildcards. nil means the
	// default; a non-nil slice replaces it.
	Exclude, Include []string

	// ShellTools names the tools whose "command" (or "cmd") argument is a
	// shell command, case-insensitively. nil means the default list.
	ShellTools []string

	// PreviewChars truncates fingerprints quoted in messages. 0 means 400.
	PreviewChars int
	// ResultPreviewChars truncates the previous result quoted in a denial.
	// 0 means 800.
	ResultPreviewChars int

	// MaxAgents caps the number of agents whose state is kept; the least
	// recently used agent is dropped first. 0 means 10,000; Off keeps every
	// agent.
	MaxAgents int
	// IdleTimeout drops the state of an agent that made no call for this
	// long; it is checked lazily, on use. 0 means one hour; a negative value
	// keeps idle agents.
	IdleTimeout time.Duration

	// Strict keeps the counting of the reference specification: no progress
	// awareness, and sink fingerprints for every shell command.
	Strict bool

	// ChangeTools names file-editing tools whose successful calls change the
	// workspace. nil means the default list.
	ChangeTools []string

	// FailLimit denies an identical call after this many identical attempts
	// in a row failed. 0 means 3; Off disables it.
	FailLimit int

	// WarnMargin sets the advice threshold: a call whose fingerprint reaches
	// limit-WarnMargin occurrences is allowed with [Decision.Advice]. 0 means
	// 1; Off disables advice.
	WarnMargin int

	// MaxDenials turns denials into [Stop] once an agent has been denied this
	// many times in one turn. 0 means 8; Off disables it.
	MaxDenials int

	// OnFault, when set, is called when fingerprinting a call panicked; the
	// call is then allowed. It runs outside the breaker's locks.
	OnFault func(agent string, call Call, fault any)

	// OnDecision, when set, is called after every Check and Resolve, outside
	// the breaker's locks; it may call back into the breaker.
	OnDecision func(Event)
}

// DefaultConfig returns the default configuration with every default written
// out, so that it can be inspected or edited.
func DefaultConfig() Config {
	panic("not implemented")
}

// Validate reports every problem of c, joined with [errors.Join]; each is a
// [*FieldError] naming the field.
func (c Config) Validate() error {
	return errors.New("loopbreaker: Validate: not implemented")
}

// LoadConfig reads a JSON configuration.
func LoadConfig(r io.Reader) (Config, error) {
	return Config{}, errors.New("loopbreaker: LoadConfig: not implemented")
}

// withDefaults returns c with every zero field replaced by its default and
// the merged maps (Limits, IgnoreArgs, HostAliases) merged over the defaults.
// It does not validate.
func (c Config) withDefaults() Config {
	panic("not implemented")
}
