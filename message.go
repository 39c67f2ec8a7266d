package loopbreaker

import (
	"strconv"
	"strings"

	"github.com/loopbreaker/loopbreaker/fingerprint"
	"github.com/loopbreaker/loopbreaker/window"
)

// BlockedPrefix starts every message of a Deny or Stop decision, so that
// hosts, logs and the model can recognise the breaker's refusals.
const BlockedPrefix = "REPEAT_TOOL_BLOCKED"

// preview returns s cut to at most n characters (runes), with "…" appended
// when it was cut, invalid UTF-8 replaced, and anything shaped like a
// tool-call template defused. The result never shares memory with s, so
// a preview of a huge argument does not keep the argument alive.
func preview(s string, n int) string {
	cut := false
	if len(s) > n {
		// Only the first n runes matter; stop counting there.
		i := 0
		for k := range s {
			if i == n {
				s, cut = s[:k], true
				break
			}
			i++
		}
	}
	s = defuse(strings.ToValidUTF8(s, "\uFFFD"))
	if cut {
		s += "…"
	}
	return strings.Clone(s)
}

// defuse keeps quoted text from reading as a tool-call template to the
// model: every '<' becomes '‹', which breaks <tool_call>, <function=...>,
// <|special|> tokens and the like while leaving the text readable.
func defuse(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "<", "‹")
}

// quote returns the result to quote in a denial: the most recent recorded
// result of a call in the window that shares one of the hit keys, else the
// agent's last recorded result. It requires that st.mu is held.
func (b *Breaker) quote(st *agentState, hitKeys []window.Key) string {
	for slot, keys := range st.win.Recent() {
		m := st.meta[slot]
		if !m.has {
			continue
		}
		for _, k := range keys {
			for _, h := range hitKeys {
				if k.Hash == h.Hash {
					return m.result
				}
			}
		}
	}
	return st.lastResult
}

// denyMessage writes the text the model receives instead of the tool's
// result.
func (b *Breaker) denyMessage(an *fingerprint.Analysis, hits []Hit, why denial, stop bool) string {
	var sb strings.Builder
	sb.Grow(512 + 64*len(hits))
	sb.WriteString(BlockedPrefix)
	sb.WriteString(": this call was not run. It repeats an action already taken in this turn:\n")
	writeHitList(&sb, hits)
	if why.why != "" {
		sb.WriteString(why.why)
		sb.WriteByte('\n')
	}
	if an.Class == fingerprint.Other {
		sb.WriteString("Changing the description, timeoutMs or other arguments that do not change the action does not make it a new action.\n")
	} else {
		sb.WriteString("Changing the description, timeoutMs, --max-time, other volatile flags or the host spelling does not make it a new action.\n")
	}
	if why.refused {
		sb.WriteString("The operator did not grant an exemption for repeated local calls in this turn.\n")
	} else if an.Local && b.cfg.LocalHosts == LocalDeny {
		sb.WriteString("Local hosts are counted like any other (LocalHosts is set to deny).\n")
	}
	if why.quoted != "" {
		sb.WriteString("The previous result was:\n")
		sb.WriteString(why.quoted)
		sb.WriteByte('\n')
	}
	if stop {
		sb.WriteString("The agent has kept repeating after " + strconv.Itoa(b.cfg.MaxDenials) + " refusals in this turn: the run is stopped: the turn ends here and the user decides what happens next.")
	} else {
		sb.WriteString("Work from the result you already have, or change approach: a different command, file, position or source. Repeating this call will be refused again.")
	}
	return sb.String()
}

// askPrompt writes the question for the operator.
func (b *Breaker) askPrompt(an *fingerprint.Analysis, hits []Hit) string {
	var sb strings.Builder
	sb.WriteString("The agent keeps calling local addresses with ")
	sb.WriteString(strconv.Quote(preview(an.Tool, b.cfg.PreviewChars)))
	if an.Summary != "" {
		sb.WriteString(": ")
		sb.WriteString(preview(an.Summary, b.cfg.PreviewChars))
	}
	sb.WriteString("\nRepeated targets:\n")
	writeHitList(&sb, hits)
	sb.WriteString("Allow repeated calls to local targets for the rest of this turn? Declining refuses this call and stops asking until the next user message.")
	return sb.String()
}

// advice writes the warning for an allowed call one step below a limit.
func (b *Breaker) advice(fp string) string {
	if fp == "" {
		return ""
	}
	return "Note from the loop breaker: this repeats an earlier action (" + preview(fp, b.cfg.PreviewChars) +
		"). One more repeat will be refused. If the results so far are not enough, try a different approach instead of the same call."
}

// writeHitList writes one "- <hit>" line per hit.
func writeHitList(sb *strings.Builder, hits []Hit) {
	for _, h := range hits {
		sb.WriteString("- ")
		h.writeTo(sb)
		sb.WriteByte('\n')
	}
}
