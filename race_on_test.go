//go:build race

package loopbreaker

const raceEnabled = true
