package loopbreaker

// Breaker decides, per agent, whether a tool call repeats an action the agent
// has already taken too often. The zero Breaker is not usable: create one with
// [New]. A Breaker is safe for concurrent use.
type Breaker struct {
	cfg Config
}

// pendingAsk is what an Ask decision carries until it is resolved.
type pendingAsk struct{}

// New returns a Breaker for cfg, or the errors of [Config.Validate].
func New(cfg Config) (*Breaker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Breaker{cfg: cfg.withDefaults()}, nil
}

// Check decides whether agent may run call. It never blocks on I/O and never
// fails: a fault inside fingerprinting allows the call.
func (b *Breaker) Check(agent string, call Call) Decision { return Decision{} }

// Resolve turns the human's answer to an Ask into Allow or Deny.
func (b *Breaker) Resolve(agent string, asked Decision, approved bool) Decision { return Decision{} }

// Record hands the breaker the settled result of an allowed call.
func (b *Breaker) Record(agent string, call Call, res Result) {}

// UserTurn marks a real human message: the agent's window, exemptions and
// refusals are cleared.
func (b *Breaker) UserTurn(agent string) {}

// Forget drops every state of agent.
func (b *Breaker) Forget(agent string) {}

// Fingerprints returns every fingerprint call carries, readable and whole.
func (b *Breaker) Fingerprints(call Call) []string { return nil }
