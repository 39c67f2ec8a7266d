// Command loopbreaker replays recorded agent traces through the loopbreaker
// library, explains how one tool call is fingerprinted, and checks
// configuration files.
//
// Install it with
//
//	go install github.com/loopbreaker/loopbreaker/cmd/loopbreaker@latest
//
// Usage:
//
//	loopbreaker replay [-config FILE] [-json] [-approve] TRACE.jsonl|DIR...
//	loopbreaker explain [-config FILE] TOOL 'ARGS_JSON'
//	loopbreaker check-config FILE
//	loopbreaker version
//
// # replay
//
// Each trace (the JSON Lines format of the corpus: one tool call or
// {"event":"user"} a line) is replayed through a fresh Breaker as a host
// would drive it: a user event starts a new turn, each call is checked, an
// Ask is answered (declined unless -approve), and the recorded result of an
// allowed call is handed to Record. A directory stands for its *.jsonl
// files in name order.
//
// The report lists, per trace, the calls that were denied, asked about or
// stopped, with their 0-based line, tool and the fingerprints that hit,
// then a summary. With -json it prints one object a call instead:
//
//	{"trace":"NAME.jsonl","line":7,"agent":"main","tool":"bash","verdict":"deny","hits":["net:open.canada.ca/x 5/5"]}
//
// where hits are strings "FINGERPRINT COUNT/LIMIT". Lines are 0-based, as
// the corpus scorer counts them; malformed lines are reported on standard
// error as FILE:N with N 1-based, as an editor counts, and skipped.
//
// # explain
//
// explain prints every fingerprint of one call with its limit and with what
// normalisation produced it: decoy arguments removed, wrappers, assignments,
// waits and volatile flags left out of the command, URLs folded, the option
// or redirection an output file came from. The rules that read recorded
// results (fail:, stale: and cycle: hits) depend on earlier calls and are
// not shown.
//
// # check-config
//
// check-config validates a JSON configuration (see loopbreaker.LoadConfig)
// and prints the effective configuration with every default filled in, or
// every problem, one a line.
//
// # Exit status
//
// 0 on success; 1 when a trace or configuration file is missing or has
// errors (each reported with its file, and its line where there is one); 2
// for a usage error: an unknown command, a bad flag or a missing argument.
package main
