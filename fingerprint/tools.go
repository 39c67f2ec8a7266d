package fingerprint

import "sync/atomic"

// toolFacts is what an Analyzer knows of a tool from its name alone.
type toolFacts struct {
	name   string // as called
	lower  string // lower-cased
	decoys decoys
	class  Class
	change bool // a file-editing tool
}

// toolCache remembers the facts of the last few tools an Analyzer saw: an
// agent uses a handful of tools, and working their facts out again means
// lower-casing the name and three map lookups on every call.
type toolCache struct {
	slots [toolCacheSlots]atomic.Pointer[toolFacts]
	next  atomic.Uint32 // the slot the next miss fills
}

const toolCacheSlots = 4

// toolOf returns the facts of tool.
func (a *Analyzer) toolOf(tool string) *toolFacts {
	for i := range a.tools.slots {
		if t := a.tools.slots[i].Load(); t != nil && t.name == tool {
			return t
		}
	}
	lower := toLower(tool)
	t := &toolFacts{name: tool, lower: lower, decoys: a.decoysOf(lower), change: a.change[lower]}
	switch {
	case a.shellTools[lower]:
		t.class = Shell
	case isURLTool(lower):
		t.class = URLTool
	}
	a.tools.slots[a.tools.next.Add(1)%toolCacheSlots].Store(t)
	return t
}
