package engine

import (
	"slices"
	"testing"
)

// A small ways game for the evaluator: symbols 0..3 pay, 9 is a wild on
// reels 2 and 4 standing for 0..2 only, 3-of-a-kind pays 1, 4 pays 2, 5 pays 5.
var testWays = WaysRule{
	Reels: 5,
	Pay: func(s Symbol, k int) Money {
		if s > 3 || k < 3 {
			return 0
		}
		return [6]Money{3: 1, 4: 2, 5: 5}[k]
	},
	Wild:        9,
	WildReels:   1<<1 | 1<<3,
	Substitutes: func(s Symbol) bool { return s <= 2 },
}

// TestEvalWaysWS1WS3: left-to-right from reel 1, any row, ways multiply,
// the wild substitutes only on its reels and only for what it stands for.
func TestEvalWaysWS1WS3(t *testing.T) {
	s := Screen{{0, 3, 5}, {9, 0, 3}, {0, 0, 3}, {7, 7, 3}, {0, 0, 0}}
	wins, sum := EvalWays(&s, &testWays, 10, nil)
	want := []Win{
		{Kind: WinWays, Symbol: 0, Count: 3, Ways: 1 * 2 * 2, Amount: 1 * 4 * 10},
		{Kind: WinWays, Symbol: 3, Count: 4, Ways: 1, Amount: 2 * 10}, // the wild does not stand for 3
	}
	if !slices.Equal(wins, want) || sum != 60 {
		t.Fatalf("wins %+v sum %d, want %+v", wins, sum, want)
	}
	// A wild on reel 3 (not a wild reel) substitutes for nothing.
	s = Screen{{1, 5, 5}, {1, 5, 5}, {9, 5, 5}, {1, 5, 5}, {1, 5, 5}}
	if wins, sum := EvalWays(&s, &testWays, 1, nil); len(wins) != 0 || sum != 0 {
		t.Fatalf("wild off its reels substituted: %+v", wins)
	}
	// Full screen of one symbol: 3^5 ways of 5 of a kind.
	s = Screen{{2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}}
	if wins, _ := EvalWays(&s, &testWays, 1, nil); len(wins) != 1 || wins[0].Ways != 243 || wins[0].Amount != 5*243 {
		t.Fatalf("243 ways: %+v", wins)
	}
}
