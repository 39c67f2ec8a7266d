// Package normalize holds the text primitives of loop detection: canonical
// JSON, URL normalisation, and the parsing of shell command lines. Every
// function is pure (no I/O, no environment, no file system), never panics on
// any input, and is safe for concurrent use.
//
// # Canonical JSON
//
// [AppendCanonical] writes a value as JSON with object keys sorted at every
// depth, numbers in their own spelling and strings escaped one way, so that
// two spellings of one call compare equal. Depth, size and self-reference
// are bounded.
//
// # URLs
//
// [NormalizeURL] folds an http(s) URL into the identity that net:
// fingerprints compare: scheme defaulted, host lower-cased and folded to
// ASCII, "www." and default ports dropped, aliases applied, fragment
// dropped, trailing slash trimmed, query sorted without tracking
// parameters. [URL.Site] is the registrable domain from the public suffix
// list; [IsLocalHost] tells local addresses. [ExtractURLs] finds URLs in
// free text.
//
// # Shell commands
//
// [ParseShell] parses a bash command line with mvdan.cc/sh/v3/syntax into
// its simple commands ([SimpleCommand]), walking pipelines, lists,
// subshells, command substitutions and the payloads of bash -c, removing
// wrappers (sudo, env, timeout, nohup, leading NAME=value assignments) and
// finding output files ([Shell.Sinks]) in redirections, tee and the output
// options of curl and wget. Two faster paths serve most agent commands: a
// word split for text made only of plain characters, and a small lexer for
// plain command lists with quotes, redirections and here-documents. Both
// decline anything they cannot read exactly as the parser would, and tests
// and fuzzing check that their results equal the parser's. Text that does
// not parse falls back to [ParsePlain], a plain word split that also serves
// PowerShell. A [ShellParser] does the same work but keeps its memory from
// one command line to the next, so that a warm parser reading a plain
// command list allocates nothing. [IsWrapper] and [ShellPayload] expose two
// of its rules: which commands are wrappers, and which payloads of
// `bash -c` are parsed in place of the shell.
//
// [StripVolatile] removes the flags that change presentation, timing or
// retries but not the action, from a table per program;
// [AppendStripVolatile] does the same into a caller's buffer.
package normalize
