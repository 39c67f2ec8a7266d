package normalize

// Placeholder imports that pin the package's dependencies until the files
// that use them land.
import (
	_ "golang.org/x/net/idna"
	_ "golang.org/x/net/publicsuffix"
	_ "mvdan.cc/sh/v3/syntax"
)
