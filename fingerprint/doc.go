// Package fingerprint folds one tool call into the set of fingerprints a loop
// detector counts.
//
// # Fingerprints
//
// Every fingerprint is a readable string whose prefix names its kind:
//
//   - exact:TOOL:ARGS — the tool and its arguments as canonical JSON, decoy
//     arguments (descriptions, timeouts, justifications) removed. Identifies
//     file actions by position: the same file at the same offset, or the same
//     replacement, is the same action.
//   - cmd:TEXT — a shell command re-rendered from its parse: wrappers, leading
//     assignments, sleep steps and volatile flags removed.
//   - net:HOST/PATH?QUERY — each http(s) resource the call touches, after URL
//     normalisation and host-alias folding. Pagination keeps distinct
//     identities because the query is kept.
//   - site:DOMAIN — the registrable domain of each URL.
//   - sink:PATH — each file a shell command writes its output to.
//   - family:http-fetch — any call that fetches over HTTP.
//   - verb:NAME — each command a shell call runs.
//
// # Classes of tools
//
// Shell tools are recognised by name (see [Options.ShellTools]), their command
// taken from the "command" or "cmd" argument, as a string or as an argv
// array. URL tools are recognised by name (fetch, search, browse, web_) and
// their "url", "href" or "uri" argument. Every other tool, file tools
// included, carries only its exact: fingerprint.
//
// # Concurrency
//
// An [Analyzer] is safe for concurrent use. The [Analysis] values it returns
// are shared between callers and must not be modified.
package fingerprint
