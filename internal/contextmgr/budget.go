package contextmgr

import "sort"

// TurnCaps shares one turn's budget among its results. sizes are the
// results' full byte sizes in call order; turnMax (<= 0: DefaultMaxTurnOutput)
// is the bytes all of them may take together; perResult (<= 0:
// DefaultMaxToolOutput) caps each one. It returns each result's cap: when
// everything fits a result keeps min(size, perResult); otherwise the cap
// shrinks to the largest common level that fits (small results keep their
// size, large ones share the rest equally), never below MinResultCap, so a
// turn of many calls can exceed turnMax only by the floor.
func TurnCaps(sizes []int, turnMax, perResult int) []int {
	if turnMax <= 0 {
		turnMax = DefaultMaxTurnOutput
	}
	if perResult <= 0 {
		perResult = DefaultMaxToolOutput
	}
	caps := make([]int, len(sizes))
	if len(sizes) == 0 {
		return caps
	}
	// Water-filling: find the level L such that sum(min(size, L)) <= turnMax.
	sorted := append([]int(nil), sizes...)
	sort.Ints(sorted)
	level, left := perResult, turnMax
	for i, s := range sorted {
		share := left / (len(sorted) - i)
		if s <= share {
			left -= s
			continue
		}
		level = min(level, share)
		break
	}
	level = max(level, MinResultCap)
	for i, s := range sizes {
		caps[i] = min(s, level)
	}
	return caps
}
