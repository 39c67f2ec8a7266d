// Package loopbreaker stops an AI agent's tool-call loops before they run.
//
// An agent harness asks the [Breaker] about every tool call a model makes,
// synchronously, before dispatching it:
//
//	d := breaker.Check(agentID, loopbreaker.Call{Tool: name, Args: args})
//	switch d.Verdict {
//	case loopbreaker.Allow:
//		res := runTool(name, args)
//		breaker.Record(agentID, call, res) // lets later denials quote it
//	case loopbreaker.Deny:
//		// Do not run the tool; give the model d.Message as the tool's error.
//	case loopbreaker.Ask:
//		// Ask the operator d.Prompt, then d = breaker.Resolve(agentID, d, yes).
//	case loopbreaker.Stop:
//		// End the agent's turn; report the run as stopped, not finished.
//	}
//
// and calls [Breaker.UserTurn] when a real human message arrives.
//
// # Fingerprints
//
// Models rarely loop byte for byte: they change a description, a timeout,
// a volatile flag or the spelling of a host, or alternate between two
// spellings of one fetch. The breaker therefore folds each call into a set
// of semantic fingerprints (see package
// github.com/loopbreaker/loopbreaker/fingerprint): the call with its decoy
// arguments removed (exact:), the shell command parsed and stripped of
// wrappers and volatile flags (cmd:), every URL normalised (net:, site:),
// the files a command writes (sink:), and the HTTP-fetch family and command
// verbs (family:, verb:). [Breaker.Fingerprints] shows them for any call.
//
// # Counting
//
// Each agent has a sliding window of its last [Config.Window] calls. A call
// is denied when one of its fingerprints would reach its limit in the window
// (by default 5 for exact:, cmd:, net: and sink:; the volume kinds site:,
// family: and verb: are uncapped). An allowed call commits all its
// fingerprints; a denied call commits only those that hit, since its action
// never ran; [Breaker.UserTurn] clears the window. Calls to local addresses
// are handled by [Config.LocalHosts]: by default the operator is asked once
// per turn before local traffic alone denies a call.
//
// Unless [Config.Strict] is set, the breaker is also progress-aware: a
// successful change to the workspace (an edit, a file written by a command)
// makes earlier observations such as test runs and reads stale, so the
// ordinary edit-and-rerun cycle is never mistaken for a loop, while a loop
// that repeats the same change is still caught.
//
// Results handed to [Breaker.Record] are evidence too. Since the workspace
// last changed, a call that failed [Config.FailLimit] times with the same
// error, or a question answered the same way that many times, is denied
// before any fingerprint reaches its limit (by default at the 4th attempt
// instead of the 5th); so is one program failing with one error, or giving
// one output on the same operands, whatever the other arguments, and a
// short cycle of calls whose answers do not change.
// Hits of these rules read fail:, stale: and cycle:. After
// [Config.MaxDenials] denials in one turn the verdict becomes [Stop].
//
// # Concurrency
//
// A Breaker is safe for concurrent use. Fingerprints are computed before any
// lock is taken; each agent then has a lock of its own, so agents never wait
// for one another and two calls of one agent see each other. Agents are held
// in a bounded table ([Config.MaxAgents], [Config.IdleTimeout]) that is
// trimmed lazily, with no background goroutine. Hooks ([Config.OnDecision],
// [Config.OnFault]) run outside the breaker's locks and may call back into
// it.
//
// # Configuration
//
// The zero [Config] is the default configuration; [DefaultConfig] writes it
// out, [Config.Validate] explains every invalid field, and [LoadConfig]
// reads the same settings from JSON.
package loopbreaker
