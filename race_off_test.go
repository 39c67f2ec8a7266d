//go:build !race

package loopbreaker

const raceEnabled = false
